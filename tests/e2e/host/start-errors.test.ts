/**
 * Host mode starts a run as -p does (lib/cli/run.ts), with the same exit codes: 2 for a usage
 * error (a malformed session flag, a bad --settings or --mcp-config), 1 for a session that cannot
 * be opened, each with one line on stderr and nothing on stdout. The same arguments in -p agree.
 */
import { afterEach, expect, test } from "bun:test";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const HOST = ["--output-format", "stream-json", "--input-format", "stream-json"];
const user = `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" }, parent_tool_use_id: null })}\n`;

const cases: [string, string[], number][] = [
  ["a session id that is not a UUID", ["--session-id", "not-a-uuid"], 2],
  ["--fork-session without a session to fork", ["--fork-session"], 2],
  ["a --settings file that does not exist", ["--settings", "no-such-settings.json"], 2],
  ["an --mcp-config file that does not exist", ["--mcp-config", "no-such-config.json"], 2],
  ["--continue with no conversation to continue", ["--continue"], 1],
];

for (const [name, flags, code] of cases) {
  test(`${name}: exit ${code} in host mode, as in -p`, async () => {
    server = startModelServer([reply(text("never")), reply(text("never"))]);
    const cwd = tempDir();
    const env = { CLAUDE_CONFIG_DIR: tempDir("agent-config-") };
    const host = await runAgent([...HOST, ...flags], { cwd, model: server.url, env, stdin: user });
    const print = await runAgent(["-p", "hi", ...flags], { cwd, model: server.url, env });
    expect([host.code, print.code]).toEqual([code, code]);
    expect(host.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^error: /)]);
    expect(host.stderr).toBe(print.stderr);
    expect(host.stdout).toBe("");
    expect(server.requests).toHaveLength(0);
  });
}
