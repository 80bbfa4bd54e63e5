/**
 * Escape injection through a real terminal (tmux with `set-clipboard on`) by what this round draws
 * from a model's tool calls: task subjects and active forms, AskUserQuestion's question, header and
 * options, a background command's description and output in /tasks and the status line, a
 * Monitor's events and the turn they start. Each
 * carries a clipboard write, a title, a hidden link and cursor codes (hostile-codes.ts); the
 * terminal's own state is the proof: no paste buffer appears, the pane keeps its title.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { CODES } from "../../../fixtures/servers/hostile-codes.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, launchAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { TMUX, type TmuxSession } from "../../support/tmux.ts";

afterEach(stopAgent);

async function untouched(t: TmuxSession): Promise<void> {
  expect(await t.buffers()).toBe("");
  expect(await t.title()).not.toContain("hostile-title");
}

describe.skipIf(!TMUX)("this round's drawings take nothing raw from a model's calls", () => {
  test(
    "task subjects and active forms in the task list",
    async () => {
      const { term } = await launchAgent(
        [
          reply(toolUse("TaskCreate", { subject: `Fix${CODES} the bug`, description: `d${CODES}`, activeForm: `Fixing${CODES} the bug` })),
          reply(toolUse("TaskUpdate", { taskId: "1", status: "in_progress" })),
          reply(text("listed")),
        ],
        { clipboard: true, env: { NO_COLOR: "" } },
      );
      const t = term as TmuxSession;
      await t.waitFor(atPrompt);
      await submit(t, "plan the work");
      await t.waitFor((s) => s.includes("listed") && atPrompt(s));
      expect(await t.screen()).toContain("HOSTILE");
      await untouched(t);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "AskUserQuestion's question, header, option labels and descriptions",
    async () => {
      const opt = (label: string) => ({ label: `${label}${CODES}`, description: `about${CODES}` });
      const q = { question: `Which${CODES} one?`, header: `Lib${CODES}`, options: [opt("alpha"), opt("beta")], multiSelect: false };
      const { term } = await launchAgent([reply(toolUse("AskUserQuestion", { questions: [q] })), reply(text("thanks"))], {
        clipboard: true,
        env: { NO_COLOR: "" },
      });
      const t = term as TmuxSession;
      await t.waitFor(atPrompt);
      await submit(t, "ask me");
      await t.waitFor("Other:");
      await untouched(t);
      await t.keys("Enter");
      await t.waitFor((s) => s.includes("thanks") && atPrompt(s));
      await untouched(t);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a background command's description and output, in the status line and /tasks",
    async () => {
      const printf = CODES.replace(/\x1b/g, "\\033").replace(/\x07/g, "\\007").replace(/\\\\/g, "\\\\\\\\");
      const { term } = await launchAgent(
        [reply(toolUse("Bash", { command: `printf '${printf}\\n'; sleep 60`, description: `serve${CODES}`, run_in_background: true })), reply(text("started"))],
        { clipboard: true, env: { NO_COLOR: "" }, args: ["--allowedTools", "Bash"] },
      );
      const t = term as TmuxSession;
      await t.waitFor(atPrompt);
      await submit(t, "start it");
      await t.waitFor((s) => s.includes("started") && atPrompt(s));
      await submit(t, "/tasks");
      await t.waitFor("serve");
      await untouched(t);
      await t.keys("Escape");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a Monitor's event lines and description, and the turn its notice starts",
    async () => {
      const printf = CODES.replace(/\x1b/g, "\\033").replace(/\x07/g, "\\007").replace(/\\\\/g, "\\\\\\\\");
      const { term } = await launchAgent(
        [
          reply(toolUse("Monitor", { command: `printf 'event${printf}\\n'; sleep 60`, description: `watch${CODES}`, timeout_ms: 60000 })),
          reply(text("watching")),
          reply(text("heard the event")),
        ],
        { clipboard: true, env: { NO_COLOR: "" }, args: ["--allowedTools", "Bash"] },
      );
      const t = term as TmuxSession;
      await t.waitFor(atPrompt);
      await submit(t, "watch it");
      await t.waitFor((s) => s.includes("heard the event") && atPrompt(s));
      await untouched(t);
      await submit(t, "/tasks");
      await t.waitFor("watch");
      await untouched(t);
      await t.keys("Escape");
    },
    TEST_TIMEOUT_MS,
  );
});
