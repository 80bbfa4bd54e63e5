/**
 * `mcp list` and `mcp get` for people, through the real program: a failed process server's row
 * names the command that was started, and a remote entry's `oauth` block is shown with its
 * secrets masked (as `--json` already had it).
 */
import { describe, expect, test } from "bun:test";
import { runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const env = { ANTHROPIC_API_KEY: undefined };

describe("mcp list", () => {
  test("a failed stdio server's row shows its command line, as written", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { gone: { command: "no-such-server-cmd", args: ["--port", "${PORT}"] } });
    const r = await runAgent(["mcp", "list"], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe("gone  failed     stdio no-such-server-cmd --port ${PORT}  command not found: no-such-server-cmd");
  });
});

describe("mcp get", () => {
  test("shows a remote entry's oauth block: client id, callback port and scopes, secrets masked", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, {
      corp: {
        type: "http",
        // Nothing listens on port 1: the entry is what is shown, the connection fails.
        url: "http://127.0.0.1:1/mcp",
        oauth: { clientId: "corp-cli", clientSecret: "s3cret-value", callbackPort: 8976, scopes: "read write" },
      },
    });
    const r = await runAgent(["mcp", "get", "corp"], { cwd: dir, env });
    expect(r.stdout).toContain("\n  oauth:         grantType authorization_code, clientId corp-cli, clientSecret ***, callbackPort 8976, scopes read write\n");
    expect(r.stdout + r.stderr).not.toContain("s3cret-value");
  });
});
