/**
 * Bash in the OS sandbox (bubblewrap), in -p through the real program and the scripted model, with
 * `sandbox.enabled` in the project's settings: writes outside the project and to its protected
 * files fail, writes inside it work, denyRead and Read deny rules hide content, the working
 * directory carries over, a timeout holds, and every process a call started ends with it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { processesWith, sandboxRuns } from "../../support/sandbox.ts";
import { survivors } from "../../support/mcp.ts";
import { place, projectSettings, resultsOf, runPrint } from "./settings-support.ts";

const runs = sandboxRuns("the sandboxed Bash tests");
const bash = (command: string, extra: Record<string, unknown> = {}) => reply(toolUse("Bash", { command, ...extra }));
const contentOf = (run: Awaited<ReturnType<typeof runPrint>>, n: number) => String(resultsOf(run, n)[0]?.content ?? "");

describe.skipIf(!runs)("Bash in the sandbox", () => {
  test("a write to /etc, the home or a protected project file fails; a write in the project works", async () => {
    const p = place();
    const home = tempDir("agent-home-");
    projectSettings(p, { sandbox: { enabled: true } });
    writeFileSync(join(p.dir, ".mcp.json"), '{"mcpServers":{}}\n');
    mkdirSync(join(p.dir, ".git", "hooks"), { recursive: true });
    mkdirSync(join(p.dir, "vendor", "lib", ".git", "hooks"), { recursive: true });
    const marker = `agent-sbx-${process.pid}-${Date.now()}`;
    const run = await runPrint(
      p,
      [
        bash(`touch /etc/${marker}`),
        bash(`touch ~/${marker}`),
        bash(`echo '{}' > .mcp.json`),
        bash(`echo 'export X=1' > .envrc`),
        bash("echo '#!/bin/sh' > .git/hooks/pre-commit"),
        bash("echo x > .claude/settings.local.json"),
        bash("echo inside > inside.txt && cat inside.txt"),
        bash("echo '#!/bin/sh' > vendor/lib/.git/hooks/post-checkout"),
      ],
      [],
      { env: { HOME: home } },
    );
    expect(run.code).toBe(0);
    expect(existsSync(`/etc/${marker}`)).toBe(false);
    expect(existsSync(join(home, marker))).toBe(false);
    for (let i = 0; i < 6; i++) expect(resultsOf(run, i)[0]?.is_error).toBe(true);
    expect(contentOf(run, 0)).toContain("Read-only file system");
    expect(readFileSync(join(p.dir, ".mcp.json"), "utf8")).toBe('{"mcpServers":{}}\n');
    // A missing protected file is neither created by the command nor left behind by the sandbox's mask.
    expect(existsSync(join(p.dir, ".envrc"))).toBe(false);
    expect(existsSync(join(p.dir, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(p.dir, ".claude", "settings.local.json"))).toBe(false);
    expect(contentOf(run, 6)).toBe("inside");
    expect(readFileSync(join(p.dir, "inside.txt"), "utf8")).toBe("inside\n");
    // A nested repository's hooks are protected too.
    expect(resultsOf(run, 7)[0]?.is_error).toBe(true);
    expect(existsSync(join(p.dir, "vendor", "lib", ".git", "hooks", "post-checkout"))).toBe(false);
  });

  test("a background command runs in the sandbox too: its write to /etc fails, its write in the project works", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true } });
    const marker = `agent-sbx-bg-${process.pid}-${Date.now()}`;
    const run = await runPrint(
      p,
      [bash(`touch /etc/${marker} 2>/dev/null; echo inside > bg.txt`, { run_in_background: true }), reply(text("started")), reply(text("heard back"))],
      [],
      { env: { AGENT_BACKGROUND_TASKS: "1" } },
    );
    expect([run.code, run.stdout]).toEqual([0, "heard back\n"]);
    expect(existsSync(`/etc/${marker}`)).toBe(false);
    expect(readFileSync(join(p.dir, "bg.txt"), "utf8")).toBe("inside\n");
  });

  test("nothing of a denyRead file or a Read deny rule's folder comes out, whatever reads it", async () => {
    const p = place();
    mkdirSync(join(p.dir, "keys"));
    writeFileSync(join(p.dir, "keys", "k.txt"), "KEYSECRET\n");
    writeFileSync(join(p.dir, "token.txt"), "TOKENSECRET\n");
    writeFileSync(join(p.dir, "plain.txt"), "plain\n");
    projectSettings(p, { sandbox: { enabled: true, filesystem: { denyRead: ["./token.txt"] } }, permissions: { deny: ["Read(./keys/**)"] } });
    // `find -exec` names no path a rule could see: only the sandbox stands between it and the file.
    const run = await runPrint(p, [
      bash("awk 1 token.txt; awk 1 plain.txt"),
      bash("base64 token.txt; find . -name k.txt -exec base64 {} +; find . -name k.txt -exec awk 1 {} +; echo end"),
    ]);
    const seen = JSON.stringify(run.requests.map((r) => r.body.messages));
    expect(seen).not.toContain("SECRET");
    expect(seen).not.toContain(Buffer.from("KEYSECRET\n").toString("base64").slice(0, 8));
    expect(seen).not.toContain(Buffer.from("TOKENSECRET\n").toString("base64").slice(0, 8));
    // A denied file's read fails; a denied folder shows empty.
    expect(contentOf(run, 0)).toMatch(/token\.txt \(Permission denied\)\nplain$/);
    expect(contentOf(run, 1)).toMatch(/end$/);
    // Outside the sandbox the files are as they were.
    expect(readFileSync(join(p.dir, "token.txt"), "utf8")).toBe("TOKENSECRET\n");
  });

  test("the working directory carries over and a timeout still holds", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true } });
    const run = await runPrint(p, [bash("mkdir -p sub/deeper && cd sub/deeper"), bash("pwd"), bash("sleep 60", { timeout: 1500 })]);
    expect(contentOf(run, 1)).toBe(join(p.dir, "sub", "deeper"));
    expect(resultsOf(run, 2)[0]?.is_error).toBe(true);
    expect(contentOf(run, 2)).toContain("timed out");
  });

  test("a bounded crowd of processes and one left behind in its own session end with the call", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true } });
    const marker = `${4000 + (process.pid % 1000)}.${Date.now() % 100000}`;
    const run = await runPrint(p, [bash(`for i in $(seq 20); do sleep ${marker} & done; setsid sleep ${marker}1 < /dev/null > /dev/null 2>&1 & echo started`)]);
    expect(contentOf(run, 0)).toBe("started");
    // SIGKILL lands asynchronously: wait (bounded) for them to go; a process that outlived the call stays listed.
    expect(await survivors(() => processesWith(`sleep ${marker}`))).toEqual([]);
  });
});
