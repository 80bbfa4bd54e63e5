/**
 * The interrupt bookkeeping of the conversation (lib/agent/turn/interrupts.ts).
 */
import { describe, expect, test } from "bun:test";
import { addUserInput, INTERRUPT_MARKER, recordInterrupt } from "../../../../lib/agent/turn/interrupts.ts";
import type { MessageParam } from "../../../../lib/agent/messages.ts";
import { Conversation } from "../../../../lib/agent/conversation.ts";

describe("interrupted turns", () => {
  const user = (text: string): MessageParam => ({ role: "user", content: [{ type: "text", text }] });

  test("the partial answer is kept, the marker follows, and the next input joins it", () => {
    const c = new Conversation("s");
    c.append(user("q1"));
    recordInterrupt(c, "half an answer  ");
    const before = addUserInput(c, [{ type: "text", text: "q2" }]);
    expect(c.messages).toEqual([
      user("q1"),
      { role: "assistant", content: [{ type: "text", text: "half an answer" }] },
      {
        role: "user",
        content: [
          { type: "text", text: INTERRUPT_MARKER },
          { type: "text", text: "q2" },
        ],
      },
    ]);
    // Rolling the turn back drops the joined input (and the marker with it).
    c.rollback(before);
    expect(c.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  test("interrupted during tools: unanswered calls are closed and the marker joins the tool results", () => {
    const c = new Conversation("s");
    c.append(user("q"));
    c.append({ role: "assistant", content: [{ type: "tool_use", id: "t", name: "Bash", input: {} }] });
    recordInterrupt(c, "");
    expect(c.messages).toHaveLength(3);
    expect(c.messages[2]!.content.map((b) => b.type)).toEqual(["tool_result", "text"]);
  });
});
