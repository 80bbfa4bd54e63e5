/**
 * The three scopes as `loadMcpConfig` reads them (real files in temp folders): precedence, what
 * each winner shadows, per-server options, and problems reported once per file.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadMcpConfig, type StdioServerConfig } from "../../../../lib/mcp/config/load.ts";
import { scopeLabel, scopePaths, userConfigFile } from "../../../../lib/mcp/config/scopes.ts";
import { toolAllowed, unmatchedFilters } from "../../../../lib/mcp/config/server-options.ts";
import { tempDir } from "../../../support/run.ts";

/** A project and a user file; `local` goes under projects[<project>] of the user file. */
function setup(scopes: { user?: object; project?: object; local?: object; other?: object }) {
  const cwd = tempDir("scopes-");
  const userFile = join(tempDir("scopes-home-"), ".claude.json");
  if (scopes.project) writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: scopes.project }));
  const doc = { ...scopes.other, ...(scopes.user ? { mcpServers: scopes.user } : {}), projects: scopes.local ? { [cwd]: { mcpServers: scopes.local } } : {} };
  writeFileSync(userFile, JSON.stringify(doc));
  return { cwd, userFile, load: (extra?: string[]) => loadMcpConfig({ cwd, userFile, env: {}, extra }) };
}

describe("scopes", () => {
  test("the user file is $CLAUDE_CONFIG_DIR/.claude.json, else $HOME/.claude.json", () => {
    expect(userConfigFile({ CLAUDE_CONFIG_DIR: "/cfg", HOME: "/h" })).toBe("/cfg/.claude.json");
    expect(userConfigFile({ CLAUDE_CONFIG_DIR: "", HOME: "/h" })).toBe("/h/.claude.json");
    const paths = scopePaths("/srv/proj", { HOME: "/h" });
    expect(scopeLabel("local", paths, { HOME: "/h" })).toBe("~/.claude.json [project /srv/proj]");
    expect(scopeLabel("project", paths, { HOME: "/h" })).toBe("/srv/proj/.mcp.json");
  });

  test("local wins over project, project over user; the winner names what it shadows", () => {
    const s = setup({
      user: { a: { command: "user-a" }, b: { command: "user-b" }, u: { command: "only-user" } },
      project: { a: { command: "project-a" }, b: { command: "project-b" } },
      local: { a: { command: "local-a" } },
    });
    const { servers, warnings } = s.load();
    expect(warnings).toEqual([]);
    const byName = Object.fromEntries(servers.map((x) => [x.name, x as StdioServerConfig]));
    expect(byName.a!.command).toBe("local-a");
    expect(byName.a!.origin).toEqual({
      scope: "local",
      file: s.userFile,
      shadows: [
        { scope: "project", file: join(s.cwd, ".mcp.json") },
        { scope: "user", file: s.userFile },
      ],
    });
    expect(byName.b!.command).toBe("project-b");
    expect(byName.b!.origin).toEqual({ scope: "project", file: join(s.cwd, ".mcp.json"), shadows: [{ scope: "user", file: s.userFile }] });
    expect(byName.u!.origin).toEqual({ scope: "user", file: s.userFile });
  });

  test("--mcp-config beats every scope; --strict-mcp-config reads no scope", () => {
    const s = setup({ user: { a: { command: "user-a" } }, local: { b: { command: "local-b" } } });
    const { servers } = s.load(['{"mcpServers": {"a": {"command": "dynamic-a"}}}']);
    expect(servers.find((x) => x.name === "a")).toMatchObject({ command: "dynamic-a", origin: { scope: "dynamic", file: "--mcp-config" } });
    expect(loadMcpConfig({ cwd: s.cwd, userFile: s.userFile, env: {}, strict: true }).servers).toEqual([]);
  });

  test("another project's local servers are not this one's; the user file's other keys are no problem", () => {
    const s = setup({ other: { numStartups: 3, projects: {} } });
    writeFileSync(s.userFile, JSON.stringify({ numStartups: 3, projects: { "/elsewhere": { mcpServers: { x: { command: "x" } } } } }));
    expect(s.load()).toEqual({ servers: [], warnings: [] });
  });

  test("a broken user file is one warning, and the project's servers still load", () => {
    const s = setup({ project: { p: { command: "p" } } });
    writeFileSync(s.userFile, "{ nope");
    const { servers, warnings } = s.load();
    expect(servers.map((x) => x.name)).toEqual(["p"]);
    expect(warnings).toEqual([expect.stringMatching(/\.claude\.json: invalid JSON at line 1:3: /)]);
  });

  test("per-server options: disabled, timeouts in ms, tool filters, cwd relative to the project", () => {
    const s = setup({
      project: {
        a: { command: "x", disabled: true, timeout: 1500, toolTimeout: 250, includeTools: ["echo"], excludeTools: ["rm"], cwd: "sub/dir" },
        b: { command: "x", timeout: "5s" },
        c: { command: "x", includeTools: "echo" },
      },
    });
    const { servers, warnings } = s.load();
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({
      name: "a",
      disabled: true,
      timeoutMs: 1500,
      toolTimeoutMs: 250,
      includeTools: ["echo"],
      excludeTools: ["rm"],
      cwd: join(s.cwd, "sub/dir"),
    });
    expect(warnings).toEqual([
      '.mcp.json: server "b": "timeout" must be a positive number of milliseconds; skipped',
      '.mcp.json: server "c": "includeTools" must be an array of tool names; skipped',
    ]);
  });

  test("tool filters: include narrows, exclude removes; names that match nothing are reported", () => {
    const opts = { includeTools: ["echo", "add", "typo"], excludeTools: ["add", "nothing"] };
    expect(["echo", "add", "env"].filter((t) => toolAllowed(opts, t))).toEqual(["echo"]);
    expect(unmatchedFilters(opts, ["echo", "add", "env"])).toEqual([
      { key: "includeTools", names: ["typo"] },
      { key: "excludeTools", names: ["nothing"] },
    ]);
  });
});
