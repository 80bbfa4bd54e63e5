/**
 * Consent before a repository's code runs: the `mcp …` inspector lists a cloned repository's
 * `.mcp.json` servers as pending approval and starts none of them (the pid file their command
 * would write stays absent); `mcp approve` is the scripts' way to approve, as the session's
 * question does; `-p` still starts them, as the course requires.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

/** A fresh repository with one `.mcp.json` server and its own HOME (nothing approved anywhere). */
function repository() {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  const pidFile = join(dir, "started.pid");
  writeMcpConfig(dir, { fx: fixtureServer("--pid-file", pidFile) });
  const env = { HOME: home };
  return { dir, home, env, started: () => existsSync(pidFile) };
}

/** Approvals exactly as the test made them: none, unless it ran `mcp approve`. */
const AS_IS = { projectServers: "as-is" } as const;
describe("the inspector starts no unapproved project server", () => {
  test("mcp list shows it as pending approval and says how to approve it; nothing starts", async () => {
    const r = repository();
    const list = await runAgent(["mcp", "list"], { cwd: r.dir, env: r.env, ...AS_IS });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^fx {2}pending approval {2}stdio /m);
    expect(list.stdout).toContain(
      "Not started, pending approval (.mcp.json): fx; approve at the agent's question in a session here, or with `mcp approve fx`.",
    );
    const json = JSON.parse((await runAgent(["mcp", "list", "--json"], { cwd: r.dir, env: r.env, ...AS_IS })).stdout);
    expect(json[0]).toMatchObject({ name: "fx", status: "disabled", error: "pending approval", scope: "project" });
    expect(r.started()).toBe(false);
  });

  test("every inspector command refuses to start it with one line, and mcp get describes it without starting it", async () => {
    const r = repository();
    for (const command of [["tools"], ["prompts"], ["resources"], ["call", "echo"], ["prompt", "greet"], ["read", "fixture://hello"], ["skills"]]) {
      const [verb, ...rest] = command as [string, ...string[]];
      const out = await runAgent(["mcp", verb, "fx", ...rest], { cwd: r.dir, env: r.env, ...AS_IS });
      expect({ verb, code: out.code }).toEqual({ verb, code: 1 });
      expect(out.stderr).toContain(`mcp ${verb}: MCP server "fx" (.mcp.json) is pending approval, so it was not started`);
    }
    const get = await runAgent(["mcp", "get", "fx"], { cwd: r.dir, env: r.env, ...AS_IS });
    expect(get.code).toBe(0);
    expect(get.stdout).toContain("  status:        pending approval");
    expect(r.started()).toBe(false);
  });

  test("mcp approve records the session's answer; then the inspector starts it", async () => {
    const r = repository();
    // A name given twice is approved, and named, once.
    const approve = await runAgent(["mcp", "approve", "fx", "fx"], { cwd: r.dir, env: r.env, ...AS_IS });
    expect(approve.stderr).toBe("");
    expect(approve.code).toBe(0);
    expect(approve.stdout).toStartWith('Approved "fx": it starts');
    expect(r.started()).toBe(false);
    // Claude Code's key, where its own question writes it.
    expect(JSON.parse(readFileSync(join(r.dir, ".claude", "settings.local.json"), "utf8"))).toMatchObject({ enabledMcpjsonServers: ["fx"] });
    const list = await runAgent(["mcp", "list"], { cwd: r.dir, env: r.env, ...AS_IS });
    expect(list.stdout).toMatch(/^fx {2}connected /m);
    expect(r.started()).toBe(true);
  });

  test("mcp approve of a name that is no project server is one line and exit 2", async () => {
    const r = repository();
    const out = await runAgent(["mcp", "approve", "nope"], { cwd: r.dir, env: r.env, ...AS_IS });
    expect(out.code).toBe(2);
    expect(out.stderr).toBe('mcp approve: no project server (.mcp.json) named "nope" here (project servers: fx)\n');
  });

  test("-p still starts it, as Claude Code's print mode does", async () => {
    const r = repository();
    const model = startModelServer([reply(text("ok"))]);
    try {
      const out = await runAgent(["-p", "hi"], { cwd: r.dir, env: r.env, model: model.url });
      expect(out.code).toBe(0);
      expect(r.started()).toBe(true);
    } finally {
      model.stop();
    }
  });
});
