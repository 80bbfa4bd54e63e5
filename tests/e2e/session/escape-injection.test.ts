/**
 * Escape injection through a real terminal (tmux with `set-clipboard on`): a server whose every
 * string carries a clipboard write, a title, a hidden link and cursor codes (hostile-server.ts), a
 * repository whose `.mcp.json` server name and hook command carry them. The terminal's own state
 * is the proof: no paste buffer appears, the pane keeps its title. At the approval questions the
 * codes are shown written out, so the user sees an odd name as odd. `-p`'s stdout stays the
 * model's text byte for byte.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolNamer } from "../../../lib/agent/mcp/names.ts";
import { CODES } from "../../../fixtures/servers/hostile-codes.ts";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { BUN, PROGRAM, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { atPrompt, launchAgent, stopAgent, submit, TEST_TIMEOUT_MS, terminalEnv } from "../../support/repl.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";

const HOSTILE_SERVER = join(ROOT, "fixtures/servers/hostile-server.ts");
const hostile = (...args: string[]) => ({ command: BUN, args: [HOSTILE_SERVER, ...args] });
/** How the approval questions write the clipboard code out. */
const SHOWN_CLIPBOARD = "\\x1b]52;c;";

let term: TmuxSession | undefined;
let model: ModelServer | undefined;
afterEach(async () => {
  await stopAgent();
  await term?.kill();
  model?.stop();
  term = model = undefined;
});

/** The terminal was not rewritten: no clipboard write, no title. */
async function untouched(t: TmuxSession): Promise<void> {
  expect(await t.buffers()).toBe("");
  expect(await t.title()).not.toContain("hostile-title");
}

describe.skipIf(!TMUX)("nothing from outside reaches the terminal raw", () => {
  test(
    "a hostile server's tool name, result, stderr, log messages and prompt descriptions in the session",
    async () => {
      const apiName = new ToolNamer().name("hostile", `echo${CODES}`);
      const { term: t } = await launchAgent([reply(toolUse(apiName, { text: "hi" })), reply(text("all done"))], {
        args: ["--verbose"],
        clipboard: true,
        env: { NO_COLOR: "" },
        setup: (dir) => writeMcpConfig(dir, { hostile: hostile() }),
      });
      await t.waitFor((s) => /^MCP: /m.test(s) && atPrompt(s));
      await submit(t, "/help");
      await t.waitFor("A prompt HOSTILE description");
      await submit(t, "go");
      // The permission question names the tool with its codes written out.
      const question = await t.waitFor("[y]es / [n]o");
      expect(question).toContain(`hostile › echo${SHOWN_CLIPBOARD}`);
      await t.type("y");
      await t.keys("Enter");
      const screen = await t.waitFor((s) => s.includes("all done") && atPrompt(s));
      expect(screen).toContain("result HOSTILE hi");
      expect(screen).toContain("call HOSTILE stderr line");
      await untouched(t as TmuxSession);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a repository's server name at the .mcp.json question and hook command at the settings question are shown written out",
    async () => {
      const dir = tempDir();
      const home = tempDir("agent-home-");
      writeMcpConfig(dir, { [`fx${CODES}`]: hostile("--marker", join(dir, "started")) });
      mkdirSync(join(dir, ".claude"));
      const hooks = { SessionStart: [{ hooks: [{ type: "command", command: `echo safe${CODES}; touch ${join(dir, "hooked")}` }] }] };
      writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ hooks }));
      model = startModelServer([reply(text("ok"))]);
      term = await TmuxSession.start({ command: [PROGRAM], cwd: dir, env: terminalEnv(home, model.url), clipboard: true });
      const settingsQuestion = await term.waitFor("Apply them? [y]es / [n]o");
      expect(settingsQuestion).toContain(`echo safe${SHOWN_CLIPBOARD}`);
      await untouched(term);
      await term.type("n");
      await term.keys("Enter");
      const serverQuestion = await term.waitFor("Start them? [a]pprove all / [c]hoose / [r]efuse:");
      expect(serverQuestion).toContain(`fx${SHOWN_CLIPBOARD}`);
      await untouched(term);
      await term.type("r");
      await term.keys("Enter");
      await term.waitFor(atPrompt);
      await untouched(term);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "`mcp get`, `mcp list`, `mcp tools` and `mcp call` on a terminal",
    async () => {
      const dir = tempDir();
      const home = tempDir("agent-home-");
      const config = join(dir, "servers.json");
      writeFileSync(config, JSON.stringify({ mcpServers: { hostile: hostile() } }));
      for (const command of [["get", "hostile"], ["list"], ["tools", "hostile"], ["call", "hostile", "plain"], ["prompts", "hostile"]]) {
        await term?.kill();
        term = await TmuxSession.start({
          command: [PROGRAM, "mcp", ...command, "--mcp-config", config, "--verbose"],
          cwd: dir,
          env: { ...terminalEnv(home, "http://127.0.0.1:9"), NO_COLOR: "" },
          clipboard: true,
        });
        expect(await term.waitForExit()).toBe(0);
        expect(await term.screen()).toContain("HOSTILE");
        await untouched(term);
      }
    },
    TEST_TIMEOUT_MS * 2,
  );

  test("-p: stderr under --verbose carries no code; stdout is the model's text, byte for byte", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { hostile: hostile() });
    // A repository's settings whose bad rule the warning quotes.
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: [`Bash(unclosed ${CODES}`] } }));
    const answer = `the answer ${CODES} as the model wrote it`;
    model = startModelServer([reply(toolUse("mcp__hostile__plain", {})), reply(text(answer))]);
    const { code, stdout, stderr } = await runAgent(["-p", "go", "--verbose", "--allowedTools", "mcp__hostile__plain"], { cwd: dir, model: model.url });
    expect(code).toBe(0);
    expect(stdout).toBe(`${answer}\n`);
    expect(stderr).toContain("HOSTILE stderr line");
    expect(stderr).toContain("log HOSTILE message");
    expect(stderr).toContain("Bash(unclosed");
    expect(stderr).not.toMatch(/[\x1b\x07\x9b\x9d]/);
  });
});

test("mcp inspector errors quote a server's names without their codes", async () => {
  const dir = tempDir();
  writeMcpConfig(dir, { hostile: hostile() });
  // The error lists the server's tool names, one of which carries the codes.
  const { code, stdout, stderr } = await runAgent(["mcp", "call", "hostile", "nope"], { cwd: dir });
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr).toContain('has no tool "nope" (tools: echoHOSTILE, plain)');
  expect(stderr).not.toMatch(/[\x1b\x07\x9b\x9d]/);
});
