/**
 * Parallel writer processes never lose each other's change (lib/files/locked-write.ts), for the files
 * written through the product's own code besides the MCP scopes (mcp-commands/concurrent-writes):
 * settings.local.json and the approvals file, and the OAuth token store; each beside a rival
 * rewriting the file in a loop under the same lock. Transcripts: one writer per session.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lockedWrite } from "../../lib/files/locked-write.ts";
import { lockTranscript } from "../../lib/agent/sessions/transcript-lock.ts";
import { BUN, ROOT, tempDir } from "../support/run.ts";

const CHILD = join(ROOT, "tests/support/locked-write-child.ts");
const RIVAL = join(ROOT, "tests/support/lock-writer.ts");
const WRITERS = 8;

async function run(command: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Eight writers of `kind` at once, and the rival looping on `file`. */
async function race(kind: string, dir: string, file: string): Promise<void> {
  writeFileSync(file, `${JSON.stringify(kind === "tokens" ? { version: 1, servers: {} } : {}, null, 2)}\n`);
  const rival = run([BUN, RIVAL, file, "30", "10"]);
  const writers = await Promise.all(Array.from({ length: WRITERS }, (_, n) => run([BUN, CHILD, kind, dir, String(n)])));
  for (const w of writers) expect(w).toEqual({ code: 0, stdout: "", stderr: "" });
  expect((await rival).stdout).toBe("rival done 30\n");
}

const names = Array.from({ length: WRITERS }, (_, n) => `s${n}`);

describe("parallel writers", () => {
  test("approvals: every name in settings.local.json's enabledMcpjsonServers, every fingerprint kept", async () => {
    const dir = tempDir();
    await race("approvals", dir, join(dir, "settings.local.json"));
    const local = JSON.parse(readFileSync(join(dir, "settings.local.json"), "utf8"));
    expect([...local.enabledMcpjsonServers].sort()).toEqual(names);
    expect(local.rival).toBe(30);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, "approvals.json"), "utf8"))[dir]).sort()).toEqual(names);
  }, 60_000);

  test("the OAuth token store: every server's tokens kept", async () => {
    const dir = tempDir();
    await race("tokens", dir, join(dir, "mcp-oauth.json"));
    const store = JSON.parse(readFileSync(join(dir, "mcp-oauth.json"), "utf8"));
    // Version 2 of the store keys servers by their authorization server's issuer (SEP-2352).
    expect(Object.keys(store.issuers["https://as.example"]).sort()).toEqual(names.map((n) => `https://${n}.example/mcp`));
    expect(store.rival).toBe(30);
  }, 60_000);

  test("lockedWrite: a change that throws writes nothing and releases the lock; no change, no write", () => {
    const file = join(tempDir(), "f.json");
    writeFileSync(file, "{}\n");
    expect(() =>
      lockedWrite(file, () => {
        throw new Error("refused");
      }),
    ).toThrow("refused");
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(lockedWrite(file, (t) => t)).toBe(false);
    expect(lockedWrite(file, () => '{"a":1}\n')).toBe(true);
    expect(readFileSync(file, "utf8")).toBe('{"a":1}\n');
  });
});

describe("one writer per session transcript", () => {
  test("a second process finds the session held and names the holder; a killed holder's lock is taken over", async () => {
    const path = join(tempDir(), "session.jsonl");
    const holder = Bun.spawn(
      [
        BUN,
        "-e",
        `const { lockTranscript } = await import(${JSON.stringify(join(ROOT, "lib/agent/sessions/transcript-lock.ts"))}); lockTranscript(${JSON.stringify(path)}); console.log("held"); await Bun.stdin.text();`,
      ],
      { stdin: "pipe", stdout: "pipe" },
    );
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("held\n");
    expect(lockTranscript(path)).toBe(`it is being written by another process (pid ${holder.pid})`);
    holder.kill("SIGKILL");
    await holder.exited;
    const release = lockTranscript(path);
    expect(typeof release).toBe("function");
    (release as () => void)();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
