/**
 * Saved sessions through the real program: -p then --resume / --continue / --fork-session,
 * the transcript's lines and mode, a cut-short last line, --session-id, --no-session-persistence,
 * and MCP tool names that keep their routes when servers list tools in another order.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

/** A project folder and a config folder of its own. */
function setup() {
  const dir = tempDir();
  const config = tempDir("agent-config-");
  const folder = join(config, "agent-sessions", dir.replace(/[^A-Za-z0-9]/g, "-"));
  return { dir, config, folder, env: { CLAUDE_CONFIG_DIR: config } };
}

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));

const sessionIdOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!).session_id as string;

describe("saved sessions", () => {
  test("-p saves the conversation; -p --resume <id> sends it again with the next prompt, in the same file", async () => {
    const { dir, folder, env } = setup();
    server = startModelServer([reply(text("Paris.")), reply(text("About 2 million."))]);
    const first = await runAgent(["-p", "capital of France?", "--output-format", "json"], { cwd: dir, model: server.url, env });
    expect(first.code).toBe(0);
    const id = sessionIdOf(first.stdout);
    const file = join(folder, `${id}.jsonl`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = lines(file);
    expect(saved[0]).toMatchObject({ type: "session", version: 1, session_id: id, cwd: dir, model: "claude-sonnet-4-6" });
    expect(saved.slice(1).map((l) => [l.type, l.message.role])).toEqual([
      ["message", "user"],
      ["message", "assistant"],
    ]);
    for (const l of saved.slice(1)) {
      expect(l.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isNaN(Date.parse(l.timestamp))).toBe(false);
    }
    expect(saved[2].usage).toEqual({ input_tokens: 10, output_tokens: 5 });

    const second = await runAgent(["-p", "--resume", id, "and its population?", "--output-format", "json"], { cwd: dir, model: server.url, env });
    expect(second.code).toBe(0);
    expect(sessionIdOf(second.stdout)).toBe(id);
    const sent = server.requests[1]!.body.messages;
    expect(sent.map((m: any) => [m.role, m.content[0].text])).toEqual([
      ["user", "capital of France?"],
      ["assistant", "Paris."],
      ["user", "and its population?"],
    ]);
    expect(lines(file)).toHaveLength(5);
    expect(readdirSync(folder)).toEqual([`${id}.jsonl`]);
  });

  test("--continue resumes the newest session of this directory; --fork-session leaves it as it was", async () => {
    const { dir, folder, env } = setup();
    server = startModelServer([reply(text("old")), reply(text("new")), reply(text("continued")), reply(text("forked"))]);
    const older = sessionIdOf((await runAgent(["-p", "older", "--output-format", "json"], { cwd: dir, model: server.url, env })).stdout);
    const newer = sessionIdOf((await runAgent(["-p", "newer", "--output-format", "json"], { cwd: dir, model: server.url, env })).stdout);
    // mtime decides "newest": make the order certain however fast the runs were.
    utimesSync(join(folder, `${older}.jsonl`), new Date(2000, 0, 1), new Date(2000, 0, 1));

    const cont = await runAgent(["-p", "-c", "go on", "--output-format", "json"], { cwd: dir, model: server.url, env });
    expect(sessionIdOf(cont.stdout)).toBe(newer);
    expect(server.requests[2]!.body.messages.map((m: any) => m.content[0].text)).toEqual(["newer", "new", "go on"]);

    const before = readFileSync(join(folder, `${newer}.jsonl`), "utf8");
    const fork = await runAgent(["-p", "--continue", "--fork-session", "branch", "--output-format", "json"], { cwd: dir, model: server.url, env });
    expect(fork.code).toBe(0);
    const forked = sessionIdOf(fork.stdout);
    expect(forked).not.toBe(newer);
    expect(readFileSync(join(folder, `${newer}.jsonl`), "utf8")).toBe(before);
    const copy = lines(join(folder, `${forked}.jsonl`));
    expect(copy[0]).toMatchObject({ session_id: forked, forked_from: newer });
    expect(copy.filter((l) => l.type === "message").map((l) => l.message.content[0].text)).toEqual(["newer", "new", "go on", "continued", "branch", "forked"]);
  });

  test("a cut-short last line is skipped with a warning, and the session goes on", async () => {
    const { dir, folder, env } = setup();
    server = startModelServer([reply(text("first answer")), reply(text("second answer"))]);
    const id = sessionIdOf((await runAgent(["-p", "one", "--output-format", "json"], { cwd: dir, model: server.url, env })).stdout);
    appendFileSync(join(folder, `${id}.jsonl`), '{"type":"message","id":"x","timestamp":"2026-');
    const r = await runAgent(["-p", "--resume", id, "two"], { cwd: dir, model: server.url, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("second answer\n");
    expect(r.stderr).toContain("line 4 is incomplete");
    expect(server.requests[1]!.body.messages.map((m: any) => m.content[0].text)).toEqual(["one", "first answer", "two"]);
  });

  test("--session-id names the new session; a malformed id is one line and exit 2, an unknown or taken one exit 1, before any model call", async () => {
    const { dir, folder, env } = setup();
    server = startModelServer([reply(text("ok"))]);
    const id = "12345678-1234-4234-8234-123456789abc";
    const r = await runAgent(["-p", "hi", "--session-id", id, "--output-format", "json"], { cwd: dir, model: server.url, env });
    expect(sessionIdOf(r.stdout)).toBe(id);
    expect(existsSync(join(folder, `${id}.jsonl`))).toBe(true);

    const again = await runAgent(["-p", "hi", "--session-id", id], { cwd: dir, model: server.url, env });
    expect([again.code, again.stderr.trim()]).toEqual([1, `error: session id ${id} is already in use`]);
    const bad = await runAgent(["-p", "hi", "--session-id", "nope"], { cwd: dir, model: server.url, env });
    expect([bad.code, bad.stderr.trim()]).toEqual([2, 'error: --session-id must be a UUID (got "nope")']);
    const unknown = await runAgent(["-p", "hi", "--resume", "22345678-1234-4234-8234-123456789abc"], { cwd: dir, model: server.url, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no saved session 22345678-1234-4234-8234-123456789abc");
    const none = await runAgent(["-p", "hi", "-c"], { cwd: tempDir(), model: server.url, env });
    expect([none.code, none.stderr.trim()]).toEqual([1, "error: no conversation to continue in this directory (--continue)"]);
    expect(server.requests).toHaveLength(1);
  });

  test("--no-session-persistence saves nothing, and json still carries a session_id", async () => {
    const { dir, config, env } = setup();
    server = startModelServer([reply(text("ok"))]);
    const r = await runAgent(["-p", "hi", "--no-session-persistence", "--output-format", "json"], { cwd: dir, model: server.url, env });
    expect(sessionIdOf(r.stdout)).toMatch(/^[0-9a-f-]{36}$/);
    expect(existsSync(join(config, "agent-sessions"))).toBe(false);
  });

  test("a config folder that cannot hold sessions: one warning line about it, the answer as usual, exit 0", async () => {
    const dir = tempDir();
    const notAFolder = join(tempDir(), "file");
    writeFileSync(notAFolder, "");
    server = startModelServer([reply(text("still answered"))]);
    const r = await runAgent(["-p", "hi"], { cwd: dir, model: server.url, env: { CLAUDE_CONFIG_DIR: notAFolder } });
    expect([r.code, r.stdout]).toEqual([0, "still answered\n"]);
    expect(r.stderr.split("\n").filter((l) => l.includes("session"))).toEqual([expect.stringMatching(/^cannot save this session: ENOTDIR/)]);
  });

  test("sessions older than cleanupPeriodDays are removed at start-up", async () => {
    const { dir, config, folder, env } = setup();
    server = startModelServer([reply(text("a")), reply(text("b"))]);
    const old = sessionIdOf((await runAgent(["-p", "old", "--output-format", "json"], { cwd: dir, model: server.url, env })).stdout);
    const day = 86_400_000;
    utimesSync(join(folder, `${old}.jsonl`), new Date(Date.now() - 3 * day), new Date(Date.now() - 3 * day));
    writeFileSync(join(config, "settings.json"), JSON.stringify({ cleanupPeriodDays: 2 }));
    const fresh = sessionIdOf((await runAgent(["-p", "new", "--output-format", "json"], { cwd: dir, model: server.url, env })).stdout);
    expect(readdirSync(folder)).toEqual([`${fresh}.jsonl`]);
  });

  test("a resumed session keeps each saved tool name on its tool when the server lists tools in another order", async () => {
    const { dir, folder, env } = setup();
    writeMcpConfig(dir, { fx: fixtureServer("--twin-names") });
    // twin.tool comes first, so it gets mcp__fx__twin_tool and twin_tool gets the _2 suffix.
    server = startModelServer([reply(toolUse("mcp__fx__twin_tool", {})), reply(text("done")), reply(toolUse("mcp__fx__twin_tool", {})), reply(text("again"))]);
    const first = await runAgent(["-p", "call it", "--output-format", "json"], { cwd: dir, model: server.url, env });
    expect(first.code).toBe(0);
    expect(server.requests[1]!.body.messages[2].content[0].content).toBe("ran twin.tool");
    const id = sessionIdOf(first.stdout);
    const routes = lines(join(folder, `${id}.jsonl`)).find((l) => l.type === "routes");
    expect(routes.routes.mcp__fx__twin_tool).toEqual({ server: "fx", tool: "twin.tool" });

    writeMcpConfig(dir, { fx: fixtureServer("--twin-names", "--reverse-tools") });
    const second = await runAgent(["-p", "--resume", id, "call it again"], { cwd: dir, model: server.url, env });
    expect(second.code).toBe(0);
    const names = server.requests[2]!.body.tools.map((t: any) => t.name).filter((n: string) => n.startsWith("mcp__fx__twin"));
    expect(names.sort()).toEqual(["mcp__fx__twin_tool", "mcp__fx__twin_tool_2"]);
    expect(server.requests[3]!.body.messages.at(-1).content[0].content).toBe("ran twin.tool");
  });
});
