/**
 * Which background tasks a saved conversation started and never heard the end of (lost.ts): what a
 * resumed session names as not having survived the earlier run.
 */
import { expect, test } from "bun:test";
import { lostTasks } from "../../../../lib/agent/background/lost.ts";
import { noticeText } from "../../../../lib/agent/background/notice.ts";
import type { MessageParam } from "../../../../lib/agent/messages.ts";

const result = (text: string): MessageParam => ({ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: text }] });

test("a task launched and never ended is lost; one with a notice or stopped by TaskStop is not", () => {
  const messages: MessageParam[] = [
    result("Command running in the background with ID: b11111111. Its output …"),
    result("Command running in the background with ID: b22222222. Its output …"),
    result("Monitor started (task b33333333; it stops after …"),
    result("The agent was started in the background. agentId: a0123456789abcdef\n…"),
    { role: "user", content: [{ type: "text", text: noticeText([{ taskId: "b11111111", status: "completed", summary: "done" }]) }] },
    // A Monitor's event is no end.
    { role: "user", content: [{ type: "text", text: noticeText([{ taskId: "b33333333", summary: "Monitor event", event: "x" }]) }] },
    result('{"message":"Stopped task b22222222 (sleep 9)","task_id":"b22222222","task_type":"local_bash","command":"sleep 9"}'),
  ];
  expect(lostTasks(messages)).toEqual(["b33333333", "a0123456789abcdef"]);
  expect(lostTasks([])).toEqual([]);
});
