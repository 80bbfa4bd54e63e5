/**
 * The question before a project's `.mcp.json` servers first start, through a real terminal
 * (tmux): approve all, choose, refuse; answers remembered in Claude Code's keys with our
 * fingerprint, a changed entry asked about again; refused servers listed, never started, also
 * by `-p` and `mcp list`, which never ask.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, PROGRAM, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";
import { submit, terminalEnv } from "../../support/repl.ts";

/** Types an answer to the question on screen and presses Enter. */
async function submitAnswer(t: TmuxSession, text: string): Promise<void> {
  await t.type(text);
  await t.waitFor(`: ${text}`);
  await t.keys("Enter");
}

if (!TMUX) console.warn("tmux not found: skipping the trust question tests (install tmux to run them)");

let model: ModelServer | undefined;
let term: TmuxSession | undefined;

afterEach(async () => {
  await term?.kill();
  model?.stop();
  term = model = undefined;
});

const TEST_TIMEOUT_MS = 120_000; // ends a hang only: above the screen wait (60 s), never a judge of speed
const QUESTION = "Start them? [a]pprove all / [c]hoose / [r]efuse:";
const atPrompt = (screen: string) => screen.trimEnd().split("\n").at(-1) === ">";

/** A project folder and a HOME; servers write their pid to `<dir>/<name>.pid` when they start. */
function project(names: string[]) {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  const servers = Object.fromEntries(names.map((n) => [n, fixtureServer("--pid-file", join(dir, `${n}.pid`))]));
  writeMcpConfig(dir, servers);
  return { dir, home, started: (name: string) => existsSync(join(dir, `${name}.pid`)) };
}

async function launch(dir: string, home: string): Promise<TmuxSession> {
  await term?.kill();
  model?.stop();
  model = startModelServer([reply(text("ok"))]);
  term = await TmuxSession.start({
    command: [PROGRAM],
    cwd: dir,
    env: terminalEnv(home, model.url),
  });
  return term;
}

/** `/mcp` in the session, once start-up is over; the screen once `expected` is on it. */
async function mcpTable(t: TmuxSession, expected: string): Promise<string> {
  // Servers connect in the background: the start-up summary says when they are done.
  await t.waitFor((s) => /^MCP: /m.test(s) && atPrompt(s));
  await submit(t, "/mcp");
  const screen = await t.waitFor((s) => s.slice(s.lastIndexOf("> /mcp")).includes(expected));
  return screen.slice(screen.lastIndexOf("> /mcp"));
}

const localSettings = (dir: string) => JSON.parse(readFileSync(join(dir, ".claude", "settings.local.json"), "utf8"));

describe.skipIf(!TMUX)("trust before a project's servers start", () => {
  test(
    "the question shows each server's command line; approve all starts them and is remembered with a fingerprint",
    async () => {
      const p = project(["fx"]);
      const t = await launch(p.dir, p.home);
      const screen = await t.waitFor(QUESTION);
      expect(screen).toContain("This project's .mcp.json would start 1 MCP server; each can run any command on this machine:");
      expect(screen).toMatch(/ {2}fx {2}\S+bun\S* \S+fixture-server\.ts --pid-file \S+fx\.pid/);
      // Nothing runs before the answer.
      expect(p.started("fx")).toBe(false);
      await submitAnswer(t, "a");
      await mcpTable(t, "fx: connected");
      expect(p.started("fx")).toBe(true);
      // Claude Code's keys, where its own question writes them.
      expect(localSettings(p.dir)).toEqual({ enabledMcpjsonServers: ["fx"], disabledMcpjsonServers: [] });
      const prints = JSON.parse(readFileSync(join(p.home, ".claude", "agent-mcp-approvals.json"), "utf8"));
      expect(Object.keys(prints[p.dir])).toEqual(["fx"]);
      expect(prints[p.dir].fx).toMatch(/^[0-9a-f]{64}$/);

      // Next time: no question.
      const again = await launch(p.dir, p.home);
      await mcpTable(again, "fx: connected");
      expect(await again.screen()).not.toContain(QUESTION);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a remote entry is named as remote in the question, not as a command that can run anything",
    async () => {
      const p = project(["fx"]);
      writeMcpConfig(p.dir, { fx: fixtureServer(), remote: { type: "http", url: "http://127.0.0.1:9/mcp" } });
      const t = await launch(p.dir, p.home);
      const screen = await t.waitFor(QUESTION);
      expect(screen).toContain(
        "This project's .mcp.json would start 2 MCP servers; local ones can run any command on this machine, remote ones receive what the agent sends them:",
      );
      expect(screen).toMatch(/ {2}remote {2}http:\/\/127\.0\.0\.1:9\/mcp/);
      await submitAnswer(t, "r");
      await mcpTable(t, "remote: disabled");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a remote entry whose token comes from a command shows that command, which a refusal never runs",
    async () => {
      const p = project([]);
      const marker = join(p.dir, "assertion-ran");
      const command = `touch ${marker}; cat token.jwt`;
      writeMcpConfig(p.dir, { wif: { type: "http", url: "http://127.0.0.1:9/mcp", oauth: { grantType: "jwt_bearer", assertionCommand: command } } });
      const t = await launch(p.dir, p.home);
      const screen = await t.waitFor(QUESTION);
      expect(screen).toContain(`wif  http://127.0.0.1:9/mcp, its token from: ${command}`);
      await submitAnswer(t, "r");
      await mcpTable(t, "wif: disabled (not approved)");
      expect(existsSync(marker)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "an entry changed since it was approved is asked about again",
    async () => {
      const p = project(["fx"]);
      await submitAnswer(await launch(p.dir, p.home).then(async (t) => (await t.waitFor(QUESTION), t)), "a");
      await term!.waitFor(atPrompt);
      writeMcpConfig(p.dir, { fx: fixtureServer("--pid-file", join(p.dir, "fx.pid"), "--instructions", "changed") });
      const t = await launch(p.dir, p.home);
      const screen = await t.waitFor(QUESTION);
      expect(screen).toContain("(changed since you approved it)");
      await submitAnswer(t, "r");
      await mcpTable(t, "fx: disabled (not approved)");
      expect(localSettings(p.dir)).toEqual({ enabledMcpjsonServers: [], disabledMcpjsonServers: ["fx"] });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "refuse: nothing starts, /mcp and mcp list say disabled (not approved), and -p honours the refusal",
    async () => {
      const p = project(["fx"]);
      const t = await launch(p.dir, p.home);
      await t.waitFor(QUESTION);
      await submitAnswer(t, "r");
      await mcpTable(t, "fx: disabled (not approved)");
      expect(p.started("fx")).toBe(false);
      await term!.kill();

      const list = await runAgent(["mcp", "list"], { cwd: p.dir, env: { HOME: p.home } });
      expect(list.code).toBe(0);
      expect(list.stdout.split("\n")[0]).toMatch(/^fx {2}disabled \(not approved\) {2}stdio \S+ \S+fixture-server\.ts/);
      model = startModelServer([reply(text("answer"))]);
      const print = await runAgent(["-p", "hi"], { cwd: p.dir, model: model.url, env: { HOME: p.home } });
      expect(print).toMatchObject({ code: 0, stdout: "answer\n" });
      expect(p.started("fx")).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "choose: one server approved, the other refused",
    async () => {
      const p = project(["one", "two"]);
      const t = await launch(p.dir, p.home);
      await t.waitFor(QUESTION);
      await submitAnswer(t, "c");
      await t.waitFor(/start one \(.*\)\? \[y\/n\]:/);
      await submitAnswer(t, "y");
      await t.waitFor(/start two \(.*\)\? \[y\/n\]:/);
      await submitAnswer(t, "n");
      const table = await mcpTable(t, "two: disabled (not approved)");
      expect(table).toContain("one: connected");
      expect(p.started("one")).toBe(true);
      expect(p.started("two")).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "print mode never asks: servers never answered start; MCP_REQUIRE_APPROVAL=1 keeps them off",
    async () => {
      const p = project(["fx"]);
      model = startModelServer([reply(text("first")), reply(text("second"))]);
      const strict = await runAgent(["-p", "hi"], { cwd: p.dir, model: model.url, env: { HOME: p.home, MCP_REQUIRE_APPROVAL: "1" } });
      expect(strict).toMatchObject({ code: 0, stdout: "first\n" });
      expect(p.started("fx")).toBe(false);
      const plain = await runAgent(["-p", "hi"], { cwd: p.dir, model: model.url, env: { HOME: p.home } });
      expect(plain).toMatchObject({ code: 0, stdout: "second\n" });
      expect(p.started("fx")).toBe(true);
      expect(existsSync(join(p.home, ".claude.json"))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );
});
