/**
 * The task list in the interactive session (the real program in tmux, a scripted model): the Task
 * tools are offered by default, and the list is drawn under the conversation, updated in place:
 * the active task by its activeForm, a done one ticked (and struck through where there is colour),
 * control characters in a subject never reaching the terminal.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { TMUX } from "../../support/tmux.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

describe.skipIf(!TMUX)("the task list in the session", () => {
  test(
    "is offered by default and drawn under the conversation, updating in place",
    async () => {
      const { term, server } = await startAgent([
        reply(toolUse("TaskCreate", { subject: "Write tests", description: "for foo", activeForm: "Writing tests" })),
        reply(toolUse("TaskCreate", { subject: "Fix bug \x1b]0;pwned\x07now", description: "the bug" })),
        reply(toolUse("TaskUpdate", { taskId: "1", status: "in_progress" })),
        reply(text("started")),
        reply(toolUse("TaskUpdate", { taskId: "1", status: "completed" })),
        reply(toolUse("TaskUpdate", { taskId: "2", status: "in_progress", activeForm: "Fixing the bug" })),
        reply(text("next one")),
      ]);
      const tools = server.requests;
      await submit(term, "plan the work");
      let screen = await term.waitFor((s) => s.includes("started") && atPrompt(s));
      expect(tools[0]!.body.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"]));
      expect(screen).toContain("▶ Writing tests");
      // The subject's OSC sequence is removed from the list's line (the tool line shows it escaped, as every call's input).
      expect(screen.split("\n")).toContain("  ○ Fix bug now");
      await submit(term, "go on");
      screen = await term.waitFor((s) => s.includes("next one") && atPrompt(s));
      expect(screen).toContain("✔ Write tests");
      expect(screen).toContain("▶ Fixing the bug");
      expect(screen).not.toContain("▶ Writing tests");
    },
    TEST_TIMEOUT_MS,
  );
});
