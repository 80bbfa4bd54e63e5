/**
 * MCP tasks (MCP 2025-11-25, basic/utilities/tasks) in the interactive session (real program,
 * pseudo-terminal): the task's status message on the running tool's line, Esc sending tasks/cancel for it,
 * its elicitation asked as a form (the call's clock stopped meanwhile), and the npm everything
 * server's simulate-research-query with a clarification chosen by hand.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { toolResult, npmServer } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { answer, lastLine } from "../../support/repl-answer.ts";
import { atPrompt, startAgent, stopAgent, submit, waitUntil } from "../../support/repl.ts";
import { tempDir, writeMcpConfig } from "../../support/run.ts";
import { sent, taskServer } from "../../support/tasks.ts";

afterEach(stopAgent);

const TEST_MS = 60_000;

describe("a task tool in the session", () => {
  test(
    "its progress is the running line, to the token of its tools/call; Esc interrupts and sends tasks/cancel for the task",
    async () => {
      const log = join(tempDir(), "t.log");
      const { term, server } = await startAgent([reply(toolUse("mcp__t__research", { topic: "tides" })), reply(text("unused"))], {
        args: ["--allowedTools", "mcp__t"],
        setup: (dir) => writeMcpConfig(dir, { t: taskServer("--log-file", log, "--progress", "--stages", "20", "--stage-ms", "1000") }),
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "research tides");
      await term.waitFor("⋯  2/20 (10%) Stage 2 of 20");
      // The token is ours, not the request id: it outlives the tools/call's answer.
      expect(sent(log, "tools/call")[0]!.msg.params._meta).toEqual({ progressToken: expect.stringMatching(/^task-progress-\d+$/) });
      await waitUntil(() => sent(log, "tasks/get").length > 0);
      await term.keys("Escape");
      await term.waitFor((s) => s.includes("Interrupted") && atPrompt(s));
      const id = sent(log, "tasks/get")[0]!.msg.params.taskId;
      await waitUntil(() => sent(log, "tasks/cancel").length > 0);
      expect(sent(log, "tasks/cancel").map((c) => c.msg.params)).toEqual([{ taskId: id }]);
      expect(server.requests).toHaveLength(1);
    },
    TEST_MS,
  );

  test(
    "input_required: the form is asked, and answering after MCP_TOOL_TIMEOUT still succeeds (the clock stands still)",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("mcp__t__research", { topic: "rome" })), reply(text("researched"))], {
        args: ["--allowedTools", "mcp__t"],
        setup: (dir) => writeMcpConfig(dir, { t: taskServer("--elicit") }),
        env: { MCP_TOOL_TIMEOUT: "1500" },
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "research rome");
      await term.waitFor((s) => lastLine(s).trim().startsWith("interpretation (number, required):"));
      // The user takes longer than the whole call may: the scenario itself, not a synchronisation.
      await Bun.sleep(2000);
      await term.keys("C-u");
      await answer(term, "interpretation (number, required):", "2");
      await answer(term, 'Send this to "t"? [a]ccept / [e]dit / [d]ecline / [c]ancel ', "a");
      await term.waitFor((s) => s.includes("researched") && atPrompt(s));
      expect(toolResult(server.requests[1]!)).toMatchObject({ content: "Report on rome (historical)" });
    },
    TEST_MS,
  );

  test(
    "simulate-research-query, ambiguous: the stages on the running line, a clarification chosen by hand",
    async () => {
      const tool = "mcp__everything__simulate-research-query";
      const { term, server } = await startAgent([reply(toolUse(tool, { topic: "python", ambiguous: true })), reply(text("report read"))], {
        args: ["--allowedTools", "mcp__everything"],
        setup: (dir) => writeMcpConfig(dir, { everything: npmServer("everything", ["stdio"]) }),
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "research python");
      await term.waitFor("⋯  Gathering sources...");
      await answer(term, "Clarification (number, required):", "3");
      await answer(term, 'Send this to "everything"? [a]ccept / [e]dit / [d]ecline / [c]ancel ', "a");
      await term.waitFor("⋯  Continuing with interpretation");
      await term.waitFor((s) => s.includes("report read") && atPrompt(s));
      expect(String(toolResult(server.requests[1]!).content)).toStartWith("# Research Report: python (comedy)\n");
    },
    TEST_MS,
  );
});
