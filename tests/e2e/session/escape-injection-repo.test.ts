/**
 * Escape injection through a real terminal (tmux with `set-clipboard on`) by what a repository or
 * a saved conversation brings rather than a server: the `--resume` picker's first prompts (a
 * scripted -p run may have been handed any text); a project agent's and a project skill's description (names with
 * codes are refused at load and have tests of their own) in
 * /agents, /skills, /help and Tab completion). Each carries a clipboard write, a title, a hidden
 * link and cursor codes (hostile-codes.ts); the terminal's own state is the proof: no paste buffer
 * appears, the pane keeps its title.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CODES } from "../../../fixtures/servers/hostile-codes.ts";
import { reply, startModelServer, text } from "../../support/model-server.ts";
import { PROGRAM, runAgent, tempDir } from "../../support/run.ts";
import { atPrompt, launchAgent, stopAgent, submit, TEST_TIMEOUT_MS, terminalEnv } from "../../support/repl.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";

afterEach(stopAgent);

async function untouched(t: TmuxSession): Promise<void> {
  expect(await t.buffers()).toBe("");
  expect(await t.title()).not.toContain("hostile-title");
}

/** YAML front matter whose double-quoted values carry the codes (JSON escapes are YAML escapes). */
const quoted = (s: string) => JSON.stringify(s);

function hostileRepo(dir: string): void {
  mkdirSync(join(dir, ".claude", "agents"), { recursive: true });
  writeFileSync(join(dir, ".claude", "agents", "spy.md"), `---\nname: spy\ndescription: ${quoted(`Spies${CODES} on you`)}\n---\nYou spy.\n`);
  mkdirSync(join(dir, ".claude", "skills", "sneak"), { recursive: true });
  writeFileSync(join(dir, ".claude", "skills", "sneak", "SKILL.md"), `---\nname: sneak\ndescription: ${quoted(`Sneaks${CODES} around`)}\n---\nSneak.\n`);
}

describe.skipIf(!TMUX)("a repository's agents and skills and a saved prompt reach the terminal without their codes", () => {
  test(
    "/agents, /skills, /help and Tab completion with a hostile project agent and skill",
    async () => {
      const { term } = await launchAgent([reply(text("ok"))], { clipboard: true, env: { NO_COLOR: "" }, setup: hostileRepo });
      const t = term as TmuxSession;
      await t.waitFor(atPrompt);
      for (const command of ["/agents", "/skills", "/help"]) {
        await submit(t, command);
        await t.waitFor(command === "/agents" ? "Spies" : "Sneaks");
        await untouched(t);
        await t.keys("Escape");
        await t.waitFor(atPrompt);
      }
      await t.type("/sn");
      await t.keys("Tab");
      await t.waitFor("sneak");
      await untouched(t);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the --resume picker with a saved first prompt carrying codes",
    async () => {
      const dir = tempDir();
      const config = tempDir("agent-config-");
      const model = startModelServer([reply(text("answered"))]);
      let t: TmuxSession | undefined;
      try {
        const run = await runAgent(["-p", `pasted${CODES} text`], { cwd: dir, model: model.url, env: { CLAUDE_CONFIG_DIR: config } });
        expect(run.code).toBe(0);
        t = await TmuxSession.start({
          command: [PROGRAM, "--resume"],
          cwd: dir,
          env: { ...terminalEnv(tempDir("agent-home-"), model.url), CLAUDE_CONFIG_DIR: config, NO_COLOR: "" },
          clipboard: true,
        });
        const screen = await t.waitFor("Number (1-1");
        expect(screen).toContain("pastedHOSTILE text");
        await untouched(t);
      } finally {
        await t?.kill();
        model.stop();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a home's server whose name carries codes and which fails to start, in the start-up lines",
    async () => {
      const home = tempDir("agent-home-");
      writeFileSync(join(home, ".claude.json"), JSON.stringify({ mcpServers: { [`bad${CODES}`]: { command: join(home, "no-such-server") } } }));
      const { term } = await launchAgent([reply(text("ok"))], { clipboard: true, env: { NO_COLOR: "" }, home, args: ["--verbose"] });
      const t = term as TmuxSession;
      const screen = await t.waitFor((s) => /^MCP: /m.test(s) && atPrompt(s));
      expect(screen).toContain('MCP server "badHOSTILE" failed to start');
      await untouched(t);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a start-up error quoting an --mcp-config name with codes (a script may pass a repository's file)",
    async () => {
      const dir = tempDir();
      let t: TmuxSession | undefined;
      try {
        t = await TmuxSession.start({
          command: [PROGRAM, "--mcp-config", `ci${CODES}.json`],
          cwd: dir,
          env: { ...terminalEnv(tempDir("agent-home-"), "http://127.0.0.1:9"), NO_COLOR: "" },
          clipboard: true,
        });
        expect(await t.waitForExit()).not.toBe(0);
        expect(await t.screen()).toContain("HOSTILE");
        await untouched(t);
      } finally {
        await t?.kill();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
