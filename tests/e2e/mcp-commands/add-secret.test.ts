/**
 * `mcp add --client-secret` on a terminal (tmux): the secret is typed without echo, never shown,
 * and lands in the 0600 secrets file, not in the scope's file.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PROGRAM, tempDir } from "../../support/run.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";

if (!TMUX) console.warn("tmux not found: skipping the hidden secret prompt test (install tmux to run it)");

let term: TmuxSession | undefined;
afterEach(async () => {
  await term?.kill();
  term = undefined;
});

describe.skipIf(!TMUX)("mcp add --client-secret on a terminal", () => {
  test("asks without echo; the secret is stored apart, mode 0600", async () => {
    const dir = tempDir();
    const home = tempDir("agent-home-");
    term = await TmuxSession.start({
      command: [PROGRAM, "mcp", "add", "--transport", "http", "--client-id", "cid", "--client-secret", "web", "http://127.0.0.1:9/mcp"],
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TERM: "xterm-256color", LANG: "C.UTF-8", NO_COLOR: "1" },
    });
    await term.waitFor("Client secret: ");
    const secret = "typed-secret-9931";
    await term.type(secret);
    await term.keys("Enter");
    expect(await term.waitForExit()).toBe(0);
    const screen = await term.screen();
    expect(screen).not.toContain(secret);
    expect(screen).toContain('Added http MCP server "web"');
    const store = join(home, ".claude", "mcp-client-secrets.json");
    expect(JSON.parse(readFileSync(store, "utf8"))).toEqual({ web: { url: "http://127.0.0.1:9/mcp", clientSecret: secret } });
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(home, ".claude.json"), "utf8")).not.toContain(secret);
  }, 30_000);
});
