/**
 * The words of the diagnostics a user sees first, through the real program: servers' colour codes
 * on a plain stderr, a mention naming no server, and how servers' failures read.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text } from "../support/model-server.ts";
import { lines, project, stopProjects } from "../support/mcp.ts";
import { FIXTURE_SERVER, BUN, runAgent, tempDir, writeMcpConfig } from "../support/run.ts";

afterEach(stopProjects);

const RED = "\\033[31m";
const RESET = "\\033[0m";
/** An `.mcp.json` entry that prints `line` (printf format) on stderr, then runs `then` (a shell command). */
const shellServer = (line: string, then: string) => ({ command: "sh", args: ["-c", `printf '${line}\\n' >&2; ${then}`] });
const fixture = `exec '${BUN}' '${FIXTURE_SERVER}'`;

describe("servers' ANSI colour", () => {
  test("--verbose shows a server's stderr lines without their colour codes when stderr is a pipe", async () => {
    const p = project({ fx: shellServer(`${RED}listening${RESET} on stdio`, fixture) }, [reply(text("ok"))]);
    const r = await p.run("hi", { args: ["--verbose"], env: { NO_COLOR: undefined } });
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toContain("[fx] listening on stdio");
    expect(r.stderr).not.toContain("\x1b");
  });

  test("a failure line quotes the stderr tail without colour codes", async () => {
    const p = project({ bad: shellServer(`${RED}Error: boom${RESET}`, "exit 3") }, [reply(text("ok"))]);
    const r = await p.run("hi");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Error: boom");
    expect(r.stderr).not.toContain("\x1b");
  });

  test("mcp list shows a failure reason without colour codes", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { bad: shellServer(`${RED}Error: boom${RESET}`, "exit 3") });
    const r = await runAgent(["mcp", "list"], { cwd: dir, env: { ANTHROPIC_API_KEY: undefined, NO_COLOR: undefined } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Error: boom");
    expect(r.stdout + r.stderr).not.toContain("\x1b");
  });
});
