/**
 * Writers never lose each other's changes (lib/files/locked-write.ts): ten `mcp add` at once into one
 * file while a rival rewrites it in a loop under Claude Code's lock (tests/support/lock-writer.ts),
 * for `~/.claude.json` (user and local scope) and `.mcp.json`; then `mcp remove` the same way.
 * Every entry lands, every removal holds, and the rival's own key survives too.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT, runAgent, tempDir } from "../../support/run.ts";

const RIVAL = join(ROOT, "tests/support/lock-writer.ts");
const TEN = Array.from({ length: 10 }, (_, i) => `s${i}`);

function place() {
  const home = tempDir("agent-home-");
  return { dir: tempDir(), home, userFile: join(home, ".claude.json"), env: { HOME: home, ANTHROPIC_API_KEY: undefined } };
}

/** Starts the rival on `file`; resolves with its stdout once its rounds are done. */
function rival(file: string, rounds: number): Promise<string> {
  const proc = Bun.spawn([BUN, RIVAL, file, String(rounds), "15"], { stdout: "pipe", stderr: "inherit" });
  return new Response(proc.stdout).text();
}

const servers = (doc: any, path: string[]) => Object.keys(path.reduce((o, k) => o?.[k], doc) ?? {}).sort();

describe("ten concurrent mcp add and remove beside a rival writer", () => {
  for (const [scope, fileOf, keyPath] of [
    ["user", (p: ReturnType<typeof place>) => p.userFile, () => ["mcpServers"]],
    ["local", (p: ReturnType<typeof place>) => p.userFile, (p: ReturnType<typeof place>) => ["projects", p.dir, "mcpServers"]],
    ["project", (p: ReturnType<typeof place>) => join(p.dir, ".mcp.json"), () => ["mcpServers"]],
  ] as const) {
    test(`${scope} scope: all ten entries land, then five removals hold`, async () => {
      const p = place();
      const file = fileOf(p);
      writeFileSync(file, `${JSON.stringify({ numStartups: 1 }, null, 2)}\n`);
      const rivalDone = rival(file, 40);
      const added = await Promise.all(TEN.map((name) => runAgent(["mcp", "add", "--scope", scope, name, "--", "srv", name], { cwd: p.dir, env: p.env })));
      for (const r of added) expect(r).toMatchObject({ code: 0, stderr: "" });
      expect(servers(JSON.parse(readFileSync(file, "utf8")), keyPath(p))).toEqual(TEN);
      const removed = await Promise.all(TEN.slice(0, 5).map((name) => runAgent(["mcp", "remove", "--scope", scope, name], { cwd: p.dir, env: p.env })));
      for (const r of removed) expect(r).toMatchObject({ code: 0, stderr: "" });
      expect(await rivalDone).toBe("rival done 40\n");
      const doc = JSON.parse(readFileSync(file, "utf8"));
      expect(servers(doc, keyPath(p))).toEqual(TEN.slice(5));
      expect(doc).toMatchObject({ numStartups: 1, rival: 40 });
      expect(existsSync(`${file}.lock`)).toBe(false);
    }, 60_000);
  }
});

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");

describe.skipIf(!existsSync(CLAUDE))("beside Claude Code itself", () => {
  test("Claude Code's own mcp add and ours, at once into ~/.claude.json: every entry lands (both take <file>.lock)", async () => {
    const p = place();
    writeFileSync(p.userFile, `${JSON.stringify({ numStartups: 1 }, null, 2)}\n`);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: p.home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" };
    const theirs = ["cc0", "cc1", "cc2", "cc3"].map(async (name) => {
      const proc = Bun.spawn([CLAUDE, "mcp", "add", "--scope", "user", name, "--", "srv", name], {
        cwd: p.dir,
        env,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      return proc.exited;
    });
    const ours = TEN.slice(0, 6).map((name) => runAgent(["mcp", "add", "--scope", "user", name, "--", "srv", name], { cwd: p.dir, env: p.env }));
    expect(await Promise.all(theirs)).toEqual([0, 0, 0, 0]);
    for (const r of await Promise.all(ours)) expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(servers(JSON.parse(readFileSync(p.userFile, "utf8")), ["mcpServers"])).toEqual(["cc0", "cc1", "cc2", "cc3", ...TEN.slice(0, 6)].sort());
  }, 60_000);
});
