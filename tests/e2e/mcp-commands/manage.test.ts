/**
 * `agent mcp add | add-json | remove` through the real program: what lands in which file (Claude
 * Code's files and keys), that other keys and the file's formatting survive, file modes, and
 * every bad input refused with one line, exit 2 and nothing written. No server is started.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, tempDir } from "../../support/run.ts";

interface Place {
  /** The project folder (cwd of the run). */
  dir: string;
  home: string;
  /** ~/.claude.json of this run. */
  userFile: string;
  env: Record<string, string | undefined>;
}

/** A fresh project and HOME (CLAUDE_CONFIG_DIR unset: the user file is ~/.claude.json). */
function place(): Place {
  const home = tempDir("agent-home-");
  return { dir: tempDir(), home, userFile: join(home, ".claude.json"), env: { HOME: home, ANTHROPIC_API_KEY: undefined } };
}

const mcp = (p: Place, ...args: string[]) => runAgent(["mcp", ...args], { cwd: p.dir, env: p.env });
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const mode = (file: string) => statSync(file).mode & 0o777;

describe("mcp add: where each scope is written", () => {
  test("local (the default) goes under projects[<project>].mcpServers of ~/.claude.json, mode 0600", async () => {
    const p = place();
    const r = await mcp(p, "add", "fx", "-e", "A=1", "-e", "B=two=2", "--", "bun", "srv.ts", "--port", "3");
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe(`Added stdio MCP server "fx" (bun srv.ts --port 3) to local scope (~/.claude.json [project ${p.dir}])\n`);
    expect(json(p.userFile)).toEqual({
      projects: { [p.dir]: { mcpServers: { fx: { type: "stdio", command: "bun", args: ["srv.ts", "--port", "3"], env: { A: "1", B: "two=2" } } } } },
    });
    expect(mode(p.userFile)).toBe(0o600);
    expect(existsSync(join(p.dir, ".mcp.json"))).toBe(false);
  });

  test("user goes to the top-level mcpServers of $CLAUDE_CONFIG_DIR/.claude.json, which becomes 0600", async () => {
    const p = place();
    const config = tempDir("agent-config-");
    writeFileSync(join(config, ".claude.json"), "{}\n");
    chmodSync(join(config, ".claude.json"), 0o644);
    const r = await runAgent(["mcp", "add", "--scope", "user", "fx", "--", "srv"], { cwd: p.dir, env: { ...p.env, CLAUDE_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    expect(json(join(config, ".claude.json"))).toEqual({ mcpServers: { fx: { type: "stdio", command: "srv", args: [], env: {} } } });
    expect(mode(join(config, ".claude.json"))).toBe(0o600);
    expect(existsSync(p.userFile)).toBe(false);
  });

  test("project goes to <project>/.mcp.json, keeping its mode and its other servers", async () => {
    const p = place();
    const file = join(p.dir, ".mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { old: { command: "keep" } } }, null, 2));
    chmodSync(file, 0o640);
    expect((await mcp(p, "add", "-s", "project", "fx", "--", "srv")).code).toBe(0);
    expect(json(file)).toEqual({ mcpServers: { old: { command: "keep" }, fx: { type: "stdio", command: "srv", args: [], env: {} } } });
    expect(mode(file)).toBe(0o640);
    expect(existsSync(p.userFile)).toBe(false);
  });

  test("other keys, other projects, key order and 4-space indentation survive add and remove", async () => {
    const p = place();
    const before = {
      numStartups: 7,
      mcpServers: { mine: { command: "user-level" } },
      projects: { "/elsewhere": { mcpServers: { x: { command: "y" } } }, [p.dir]: { allowedTools: ["Bash"], hasTrustDialogAccepted: true } },
      zLast: "kept",
    };
    writeFileSync(p.userFile, JSON.stringify(before, null, 4) + "\n");
    expect((await mcp(p, "add", "fx", "--", "srv")).code).toBe(0);
    const text = readFileSync(p.userFile, "utf8");
    expect(text).toStartWith('{\n    "numStartups": 7,\n    "mcpServers": {');
    expect(text).toEndWith('    "zLast": "kept"\n}\n');
    expect(json(p.userFile).projects[p.dir]).toEqual({
      allowedTools: ["Bash"],
      hasTrustDialogAccepted: true,
      mcpServers: { fx: { type: "stdio", command: "srv", args: [], env: {} } },
    });
    expect((await mcp(p, "remove", "fx")).code).toBe(0);
    expect(json(p.userFile)).toEqual({ ...before, projects: { ...before.projects, [p.dir]: { ...before.projects[p.dir], mcpServers: {} } } });
  });

  test("words after -- are the server's, flags included; repeated -e never takes the name", async () => {
    const p = place();
    const r = await mcp(p, "add", "-e", "K=v", "-e", "L=w", "srv-name", "--", "npx", "-y", "pkg", "--scope", "user", "-e", "X=1", "--");
    expect(r.code).toBe(0);
    expect(json(p.userFile).projects[p.dir].mcpServers).toEqual({
      "srv-name": { type: "stdio", command: "npx", args: ["-y", "pkg", "--scope", "user", "-e", "X=1", "--"], env: { K: "v", L: "w" } },
    });
  });

  test("--transport http and sse: url, headers and the oauth block", async () => {
    const p = place();
    const r = await mcp(
      p,
      "add",
      "--transport",
      "http",
      "-H",
      "Authorization: Bearer abc",
      "-H",
      "X-Team:  core ",
      "--client-id",
      "cid",
      "--callback-port",
      "8123",
      "web",
      "http://127.0.0.1:3000/mcp",
    );
    expect(r).toMatchObject({
      code: 0,
      stdout: `Added http MCP server "web" (http://127.0.0.1:3000/mcp) to local scope (~/.claude.json [project ${p.dir}])\n`,
    });
    expect((await mcp(p, "add", "-t", "sse", "-s", "user", "old", "https://example.test/sse")).code).toBe(0);
    expect(json(p.userFile)).toEqual({
      mcpServers: { old: { type: "sse", url: "https://example.test/sse" } },
      projects: {
        [p.dir]: {
          mcpServers: {
            web: {
              type: "http",
              url: "http://127.0.0.1:3000/mcp",
              headers: { Authorization: "Bearer abc", "X-Team": "core" },
              oauth: { clientId: "cid", callbackPort: 8123 },
            },
          },
        },
      },
    });
  });

  test("--client-secret reads MCP_CLIENT_SECRET and keeps it in a 0600 file of its own, never in a scope's file", async () => {
    const p = place();
    const secret = "very-secret-value-42";
    const r = await runAgent(
      ["mcp", "add", "--transport", "http", "--scope", "project", "--client-id", "cid", "--client-secret", "web", "http://127.0.0.1:1/mcp"],
      {
        cwd: p.dir,
        env: { ...p.env, MCP_CLIENT_SECRET: secret },
      },
    );
    expect(r.code).toBe(0);
    expect(readFileSync(join(p.dir, ".mcp.json"), "utf8")).not.toContain(secret);
    const store = join(p.home, ".claude", "mcp-client-secrets.json");
    expect(json(store)).toEqual({ web: { url: "http://127.0.0.1:1/mcp", clientSecret: secret } });
    expect(mode(store)).toBe(0o600);
    expect(r.stdout + r.stderr).not.toContain(secret);
    // Without the variable and without a terminal there is no safe way to get it: refused.
    const none = await mcp(p, "add", "--transport", "http", "--client-secret", "other", "http://127.0.0.1:1/mcp");
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("mcp add: --client-secret needs MCP_CLIENT_SECRET, or a terminal to type it on\n");
  });

  test("add-json writes the entry as given, in the scope given", async () => {
    const p = place();
    const entry = { command: "srv", args: ["-x"], env: { T: "${TOKEN}" }, timeout: 5000, includeTools: ["echo"] };
    expect((await mcp(p, "add-json", "j", JSON.stringify(entry))).code).toBe(0);
    expect((await mcp(p, "add-json", "--scope", "project", "h", '{"type":"http","url":"http://127.0.0.1:9/mcp"}')).code).toBe(0);
    expect(json(p.userFile).projects[p.dir].mcpServers).toEqual({ j: entry });
    expect(json(join(p.dir, ".mcp.json"))).toEqual({ mcpServers: { h: { type: "http", url: "http://127.0.0.1:9/mcp" } } });
  });
});

describe("mcp remove", () => {
  test("from the only scope that has it; when several do, exit 2 naming them and nothing changes", async () => {
    const p = place();
    expect((await mcp(p, "add", "fx", "--", "a")).code).toBe(0);
    expect((await mcp(p, "add", "--scope", "user", "fx", "--", "b")).code).toBe(0);
    const before = readFileSync(p.userFile, "utf8");
    const both = await mcp(p, "remove", "fx");
    expect(both).toMatchObject({ code: 2, stdout: "" });
    expect(both.stderr).toBe('mcp remove: "fx" exists in several scopes (local, user): say which with --scope local|user\n');
    expect(readFileSync(p.userFile, "utf8")).toBe(before);
    const r = await mcp(p, "remove", "--scope", "user", "fx");
    expect(r).toMatchObject({ code: 0, stdout: 'Removed MCP server "fx" from user scope (~/.claude.json)\n' });
    expect(json(p.userFile)).toEqual({ projects: { [p.dir]: { mcpServers: { fx: { type: "stdio", command: "a", args: [], env: {} } } } }, mcpServers: {} });
    expect((await mcp(p, "remove", "fx")).code).toBe(0);
    expect(json(p.userFile).projects[p.dir].mcpServers).toEqual({});
  });

  test("a name no scope has is exit 1; a scope that lacks it says where it is", async () => {
    const p = place();
    expect(await mcp(p, "remove", "ghost")).toMatchObject({ code: 1, stderr: 'mcp remove: no MCP server named "ghost" in any scope\n' });
    expect((await mcp(p, "add", "-s", "project", "fx", "--", "a")).code).toBe(0);
    expect(await mcp(p, "remove", "-s", "user", "fx")).toMatchObject({
      code: 1,
      stderr: 'mcp remove: no MCP server named "fx" in user scope (it is in: project)\n',
    });
    expect(existsSync(p.userFile)).toBe(false);
  });
});

describe("bad input: one line, exit 2, nothing written", () => {
  const cases: [string, string[], string][] = [
    ["a name with a dot", ["add", "my.server", "--", "srv"], 'mcp add: server name "my.server" may hold only letters, digits, "_" and "-"'],
    ["a name with a space", ["add-json", "a b", "{}"], 'mcp add-json: server name "a b" may hold only letters, digits, "_" and "-"'],
    ["a missing --", ["add", "fx", "npx", "pkg"], 'mcp add: missing "--" before the server\'s command (agent mcp add fx -- <command> [args…])'],
    ["nothing after --", ["add", "fx", "--"], 'mcp add: missing the server\'s command after "--"'],
    ["an -e without =", ["add", "-e", "fx", "--", "srv"], 'mcp add: -e "fx": expected KEY=VALUE'],
    ["an unknown transport", ["add", "--transport", "ws", "fx", "ws://x"], 'mcp add: unknown transport "ws" (stdio, http or sse)'],
    ["an unknown scope", ["add", "--scope", "global", "fx", "--", "srv"], 'mcp add: unknown scope "global" (local, project or user)'],
    ["a URL that is not http", ["add", "--transport", "http", "fx", "file:///etc/passwd"], 'mcp add: "file:///etc/passwd" is not an http:// or https:// URL'],
    ["a bad header", ["add", "--transport", "http", "-H", "no colon", "fx", "http://x.test/"], 'mcp add: -H "no colon": expected "Name: value"'],
    [
      "a bad port",
      ["add", "--transport", "http", "--callback-port", "99999", "fx", "http://x.test/"],
      'mcp add: --callback-port must be a port number from 1 to 65535 (got "99999")',
    ],
    ["a header on stdio", ["add", "-H", "A: b", "fx", "--", "srv"], "mcp add: --header is for http and sse servers (add --transport http)"],
    ["invalid JSON", ["add-json", "fx", "{bad"], "mcp add-json: invalid JSON: "],
    ["JSON that is not an object", ["add-json", "fx", "[1]"], 'mcp add-json: the entry must be a JSON object, like {"command": "npx", "args": ["-y", "pkg"]}'],
    ["JSON of an unknown transport", ["add-json", "fx", '{"type":"ws","url":"ws://x"}'], 'mcp add-json: unknown transport "ws" (stdio, http or sse)'],
    ["JSON without command", ["add-json", "fx", '{"args":[]}'], 'mcp add-json: a stdio entry needs "command" (a non-empty string)'],
    ["an unknown option", ["add", "--frob", "fx", "--", "srv"], "mcp add: unknown option --frob (see agent mcp --help)"],
    ["no name", ["remove"], "mcp remove: missing server name (agent mcp remove [--scope local|project|user] <name>)"],
  ];
  for (const [what, args, message] of cases) {
    test(what, async () => {
      const p = place();
      const r = await mcp(p, ...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.split("\n").length).toBe(2);
      expect(r.stderr).toStartWith(message);
      expect(existsSync(p.userFile) || existsSync(join(p.dir, ".mcp.json")) || existsSync(join(p.home, ".claude"))).toBe(false);
    });
  }

  test("a duplicate in the same scope leaves the file byte for byte", async () => {
    const p = place();
    mkdirSync(p.home, { recursive: true });
    expect((await mcp(p, "add", "fx", "--", "first")).code).toBe(0);
    const before = readFileSync(p.userFile, "utf8");
    const r = await mcp(p, "add", "fx", "--", "second");
    expect(r).toMatchObject({
      code: 2,
      stderr: `mcp add: a server named "fx" already exists in local scope (~/.claude.json [project ${p.dir}]); remove it first\n`,
    });
    expect(readFileSync(p.userFile, "utf8")).toBe(before);
    // The same name in another scope is no duplicate.
    expect((await mcp(p, "add", "-s", "project", "fx", "--", "third")).code).toBe(0);
  });

  test("a user file that is not valid JSON is left alone: exit 1 naming it", async () => {
    const p = place();
    writeFileSync(p.userFile, '{"numStartups": 3,');
    const r = await mcp(p, "add", "fx", "--", "srv");
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith(`mcp add: ${p.userFile}: invalid JSON at line 1:19`);
    expect(readFileSync(p.userFile, "utf8")).toBe('{"numStartups": 3,');
  });
});
