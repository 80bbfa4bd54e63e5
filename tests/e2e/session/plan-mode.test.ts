/**
 * Plan mode in the interactive session (the real program in tmux, a scripted model): Shift+Tab
 * cycles default → acceptEdits → plan with the mode shown above the prompt; in plan mode a write is
 * refused without a question; ExitPlanMode shows the plan rendered as Markdown and asks, and the
 * answer starts in acceptEdits, or keeps planning with the user's feedback for the model.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type RecordedRequest, reply, type Step, text, toolUse } from "../../support/model-server.ts";
import { TMUX } from "../../support/tmux.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

/** The plan file plan mode's note names. */
function planFileOf(req: RecordedRequest): string {
  const match = /Write the plan to (\S+\.md),/.exec(JSON.stringify(req.body.messages));
  if (!match) throw new Error("no plan file in the request");
  return match[1]!;
}

const lastResult = (req: RecordedRequest) => req.body.messages.at(-1).content[0];

/** Writes a plan (with an escape sequence a terminal must not obey), then calls ExitPlanMode; then `after`. */
function planThenExit(after: Step[]): Step[] {
  return [
    (req) => reply(toolUse("Write", { file_path: planFileOf(req), content: "# The plan\n\n1. **Add** the parser\n2. Test it \x1b]0;pwned\x07\n" })),
    reply(toolUse("ExitPlanMode", {})),
    ...after,
  ];
}

describe.skipIf(!TMUX)("plan mode in the session", () => {
  test(
    "Shift+Tab cycles default → acceptEdits → plan → default, shown above the prompt; in plan mode a write is refused without a question",
    async () => {
      const { term, dir, server } = await startAgent([reply(toolUse("Write", { file_path: "a.txt", content: "A" })), reply(text("refused it"))]);
      await term.keys("BTab");
      await term.waitFor("accept edits on");
      await term.keys("BTab");
      await term.waitFor((s) => s.includes("plan mode on") && !s.includes("accept edits on"));
      await term.keys("BTab");
      await term.waitFor((s) => !s.includes("plan mode on") && !s.includes("accept edits on"));
      await term.keys("BTab", "BTab");
      await term.waitFor("plan mode on");
      await submit(term, "change a.txt");
      const screen = await term.waitFor((s) => s.includes("refused it") && atPrompt(s));
      expect(screen).not.toContain("Allow Write");
      expect(existsSync(join(dir, "a.txt"))).toBe(false);
      expect(JSON.stringify(lastResult(server.requests[1]!).content)).toContain("Plan mode is on");
      expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("call ExitPlanMode");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "ExitPlanMode shows the plan as Markdown, and [1] starts in acceptEdits: the next write runs without a question",
    async () => {
      const { term, dir, server } = await startAgent(
        planThenExit([reply(toolUse("Write", { file_path: "a.txt", content: "A" })), reply(text("carried out"))]),
        { args: ["--permission-mode", "plan"] },
      );
      await term.waitFor("plan mode on");
      await submit(term, "plan a parser");
      const screen = await term.waitFor("Start? [1] yes, accept edits");
      expect(screen).toContain("Here is the plan");
      // Rendered: the heading's # and the bold's ** are gone; the escape sequence is not obeyed.
      expect(screen).toContain("The plan");
      expect(screen).not.toContain("# The plan");
      expect(screen).toContain("1. Add the parser");
      expect(screen).not.toContain("pwned");
      await term.type("1");
      await term.keys("Enter");
      const done = await term.waitFor((s) => s.includes("carried out") && atPrompt(s));
      expect(done).not.toContain("Allow Write");
      expect(done).toContain("accept edits on");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A");
      expect(JSON.stringify(lastResult(server.requests[2]!).content)).toContain("approved the plan");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "[3] with feedback keeps planning: the model reads the feedback and plan mode stays on",
    async () => {
      const { term, server } = await startAgent(planThenExit([reply(text("will revise"))]), { args: ["--permission-mode", "plan"] });
      await submit(term, "plan a parser");
      await term.waitFor("Start? [1] yes, accept edits");
      await term.type("3 split step two");
      await term.keys("Enter");
      const screen = await term.waitFor((s) => s.includes("will revise") && atPrompt(s));
      expect(screen).toContain("plan mode on");
      const result = lastResult(server.requests[2]!);
      expect(result.is_error).toBe(true);
      expect(JSON.stringify(result.content)).toContain("split step two");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "/help names Shift+Tab, /plan and /todos; Tab completes /plan, which turns plan mode on; /todos with no task says so",
    async () => {
      const { term } = await startAgent([]);
      await submit(term, "/help");
      let screen = await term.waitFor((s) => s.includes("Shift+Tab") && atPrompt(s));
      expect(screen).toContain("/plan");
      expect(screen).toContain("/todos");
      await term.type("/pla");
      await term.keys("Tab");
      await term.waitFor("> /plan");
      await term.keys("Enter");
      screen = await term.waitFor((s) => s.includes("plan mode on (shift+tab to cycle)") && atPrompt(s));
      expect(screen).toContain("Plan mode is on: the model reads and plans");
      await submit(term, "/todos");
      await term.waitFor("No tasks yet.");
    },
    TEST_TIMEOUT_MS,
  );
});
