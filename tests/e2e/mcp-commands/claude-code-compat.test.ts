/**
 * The same files and keys as Claude Code, checked against the real Claude Code executable that
 * comes with the Agent SDK dev dependency (run offline: `mcp add`, `mcp get`, `mcp list` need no
 * account): servers added by either program are seen by the other in the right scope, an
 * approval given here holds there, and removing a server leaves each file as Claude Code's own
 * `mcp remove` does. Skipped, with a note, when that executable is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recordApprovals } from "../../../lib/mcp/config/approvals.ts";
import { approvalPaths } from "../../../lib/agent/project-approval.ts";
import { BUN, FIXTURE_SERVER, ROOT, baseEnv, runAgent, tempDir } from "../../support/run.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const HAVE_CLAUDE = existsSync(CLAUDE);
if (!HAVE_CLAUDE) console.warn("the Claude Code executable is not installed: skipping the compatibility tests");

const TEST_TIMEOUT_MS = 60_000;

function place() {
  const home = tempDir("agent-home-");
  return { dir: tempDir(), home, env: { HOME: home, ANTHROPIC_API_KEY: undefined } };
}

/** Runs Claude Code in `dir` with `home`, offline and without telemetry. */
async function claude(p: { dir: string; home: string }, ...args: string[]) {
  const env = { ...baseEnv(), HOME: p.home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } as Record<string, string>;
  delete env.CLAUDE_CONFIG_DIR;
  const proc = Bun.spawn([CLAUDE, ...args], { cwd: p.dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe.skipIf(!HAVE_CLAUDE)("Claude Code sees what we write, and we see what it writes", () => {
  test(
    "servers Claude Code adds in each scope are ours, in the same scope",
    async () => {
      const p = place();
      for (const scope of ["local", "user", "project"]) {
        const r = await claude(p, "mcp", "add", "--scope", scope, `cc-${scope}`, "--", BUN, FIXTURE_SERVER);
        expect(r.code).toBe(0);
      }
      const list = await runAgent(["mcp", "list", "--json"], { cwd: p.dir, env: p.env });
      const rows = JSON.parse(list.stdout) as { name: string; status: string; scope: string }[];
      expect(rows.map((r) => [r.name, r.scope, r.status]).sort()).toEqual([
        ["cc-local", "local", "connected"],
        ["cc-project", "project", "connected"],
        ["cc-user", "user", "connected"],
      ]);
      const removed = await runAgent(["mcp", "remove", "cc-local"], { cwd: p.dir, env: p.env });
      expect(removed.code).toBe(0);
      expect((await claude(p, "mcp", "get", "cc-local")).code).not.toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "servers we add in each scope are Claude Code's, in the same scope",
    async () => {
      const p = place();
      for (const scope of ["local", "user", "project"]) {
        const r = await runAgent(["mcp", "add", "--scope", scope, `ours-${scope}`, "-e", "K=v", "--", BUN, FIXTURE_SERVER], { cwd: p.dir, env: p.env });
        expect(r.code).toBe(0);
      }
      const scopes = { local: "Local config", user: "User config", project: "Project config" };
      for (const [scope, label] of Object.entries(scopes)) {
        const r = await claude(p, "mcp", "get", `ours-${scope}`);
        expect(r.stdout).toContain(`Scope: ${label}`);
        expect(r.stdout).toContain(`Command: ${BUN}`);
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a project server approved here is approved in Claude Code (once it trusts the folder, as it requires)",
    async () => {
      const p = place();
      expect((await runAgent(["mcp", "add", "--scope", "project", "pj", "--", BUN, FIXTURE_SERVER], { cwd: p.dir, env: p.env })).code).toBe(0);
      writeFileSync(join(p.home, ".claude.json"), JSON.stringify({ projects: { [p.dir]: { hasTrustDialogAccepted: true } } }));
      expect((await claude(p, "mcp", "list")).stdout).toMatch(/pj: .* Pending approval/);
      const entry = { type: "stdio", command: BUN, args: [FIXTURE_SERVER], env: {} };
      await recordApprovals(approvalPaths(p.dir, { HOME: p.home }), [{ name: "pj", approved: true, entry }]);
      expect((await claude(p, "mcp", "list")).stdout).toMatch(/pj: .* Connected/);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "mcp remove leaves each scope's file as Claude Code's does: the last server out leaves mcpServers {}, other keys kept",
    async () => {
      const entry = { command: "echo", args: ["hi"] };
      /** The same starting files in a fresh place; returns what removing `name` from `scope` left. */
      const after = async (remove: (p: ReturnType<typeof place>) => Promise<{ code: number }>) => {
        const p = place();
        const home = {
          mcpServers: { u: entry },
          projects: { [p.dir]: { mcpServers: { a: entry } }, "/elsewhere": { mcpServers: {}, hasTrustDialogAccepted: true } },
        };
        writeFileSync(join(p.home, ".claude.json"), JSON.stringify(home));
        writeFileSync(join(p.dir, ".mcp.json"), JSON.stringify({ mcpServers: { pj: entry } }));
        expect((await remove(p)).code).toBe(0);
        const user = JSON.parse(readFileSync(join(p.home, ".claude.json"), "utf8"));
        // Claude Code adds its own bookkeeping keys (first start time, machine id); the servers' keys are compared.
        const projects = Object.fromEntries(Object.entries(user.projects).map(([k, v]) => [k === p.dir ? "<here>" : k, v]));
        return { user: user.mcpServers, projects, project: JSON.parse(readFileSync(join(p.dir, ".mcp.json"), "utf8")) };
      };
      for (const [name, scope] of [
        ["a", "local"],
        ["u", "user"],
        ["pj", "project"],
      ]) {
        const ours = await after((p) => runAgent(["mcp", "remove", "--scope", scope!, name!], { cwd: p.dir, env: p.env }));
        const theirs = await after((p) => claude(p, "mcp", "remove", "--scope", scope!, name!));
        expect(ours).toEqual(theirs);
      }
      // Neither deletes an emptied entry: the local scope's project keeps `mcpServers: {}`.
      const local = await after((p) => runAgent(["mcp", "remove", "a"], { cwd: p.dir, env: p.env }));
      expect(local.projects).toEqual({ "<here>": { mcpServers: {} }, "/elsewhere": { mcpServers: {}, hasTrustDialogAccepted: true } });
    },
    TEST_TIMEOUT_MS,
  );
});
