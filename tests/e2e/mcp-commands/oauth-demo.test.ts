/**
 * `npm run demo:oauth`, as README tells a user to try `mcp login`: it starts, prints the lines to
 * use, and those lines work: `mcp add`, then `mcp login` against its real authorization server
 * (the `$BROWSER` stand-in of the OAuth tests clicks "allow"), then `mcp call` with the token.
 * EOF on its stdin stops it. Slow (an authorization server): SKIP_SLOW=1 skips it locally.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUN, ROOT, runAgent, tempDir } from "../../support/run.ts";

const skip = process.env.SKIP_SLOW === "1" && !process.env.CI;
const BROWSER = `${BUN} ${join(ROOT, "tests/support/oidc-browser.ts")}`;

let demo: Bun.Subprocess<"pipe", "pipe", "pipe"> | undefined;
afterEach(() => {
  demo?.kill();
  demo = undefined;
});

/** Reads `stream` until `done` holds for what arrived; returns it. */
async function readUntil(stream: ReadableStream<Uint8Array>, done: (text: string) => boolean): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

describe.skipIf(skip)("npm run demo:oauth", () => {
  test("prints an mcp add line that works; mcp login against it succeeds; the protected tool then answers", async () => {
    demo = Bun.spawn(["npm", "run", "--silent", "demo:oauth"], { cwd: ROOT, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const out = await readUntil(demo.stdout, (t) => t.includes("mcp call"));
    const add = /^ {2}\.\/your_program\.sh (mcp add --transport http demo (http:\/\/127\.0\.0\.1:\d+\/mcp))$/m.exec(out);
    expect(add).not.toBeNull();
    expect(out).toContain("\n  ./your_program.sh mcp login demo\n");
    expect(out).toContain(`\n  ./your_program.sh mcp call demo echo '{"text": "hello"}'\n`);

    const env = { HOME: tempDir("agent-home-"), CLAUDE_CONFIG_DIR: tempDir("agent-config-"), ANTHROPIC_API_KEY: undefined };
    const cwd = tempDir();
    const added = await runAgent(add![1]!.split(" "), { cwd, env });
    expect(added.code).toBe(0);
    // Before the login: the server asks for one.
    const before = await runAgent(["mcp", "list"], { cwd, env });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain("needs authentication: run ./your_program.sh mcp login demo");
    const login = await runAgent(["mcp", "login", "demo"], { cwd, env: { ...env, BROWSER } });
    expect([login.code, login.stdout]).toEqual([0, 'Logged in to MCP server "demo"\n']);
    const call = await runAgent(["mcp", "call", "demo", "echo", '{"text": "hello"}'], { cwd, env });
    expect([call.code, call.stdout.trim()]).toEqual([0, "hello"]);

    demo.stdin.end();
    expect(await demo.exited).toBe(0);
  }, 60_000);
});
