/**
 * `.mcp.json` / `--mcp-config` loading, on real files in a temporary directory.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadMcpConfig, type ServerConfig, type StdioServerConfig } from "../../../../lib/mcp/config/load.ts";
import { expandVars } from "../../../../lib/mcp/config/entries.ts";
import { jsonErrorOffset, lineColumn } from "../../../../lib/files/json-position.ts";
import { Peer } from "../../../../fixtures/servers/peer.ts";
import { BUN, FIXTURE_SERVER, tempDir } from "../../../support/run.ts";

/** These tests load stdio entries only. */
const stdio = (c: ServerConfig | undefined) => c as StdioServerConfig;

function project(mcpJson?: unknown): string {
  const dir = tempDir("config-test-");
  if (mcpJson !== undefined) writeFileSync(join(dir, ".mcp.json"), typeof mcpJson === "string" ? mcpJson : JSON.stringify(mcpJson, null, 2));
  return dir;
}
const servers = (mcpServers: Record<string, unknown>) => ({ mcpServers });
/** Where loadMcpConfig says an entry of the project's .mcp.json came from. */
const fromProject = (cwd: string) => ({ scope: "project" as const, file: join(cwd, ".mcp.json") });

describe("loadMcpConfig", () => {
  test("no .mcp.json → no servers and no warnings", () => {
    expect(loadMcpConfig({ cwd: project(), env: {} })).toEqual({ servers: [], warnings: [] });
  });

  test("reads servers with defaults for args and env", () => {
    const cwd = project(servers({ a: { command: "srv", args: ["--x"], env: { K: "v" } }, b: { command: "other" } }));
    expect(loadMcpConfig({ cwd, env: {} })).toEqual({
      servers: [
        { type: "stdio", name: "a", command: "srv", args: ["--x"], env: { K: "v" }, written: { command: "srv", args: ["--x"] }, origin: fromProject(cwd) },
        { type: "stdio", name: "b", command: "other", args: [], env: {}, written: { command: "other", args: [] }, origin: fromProject(cwd) },
      ],
      warnings: [],
    });
  });

  test("unparseable JSON → one warning with line:column, no servers from that file", () => {
    const cwd = project('{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}');
    const { servers: s, warnings } = loadMcpConfig({ cwd, env: {} });
    expect(s).toEqual([]);
    // The reason after the position is the runtime's own JSON.parse message.
    expect(warnings).toEqual([expect.stringMatching(/^\.mcp\.json: invalid JSON at line 3:28: \S/)]);
  });

  test("a byte-order mark is accepted", () => {
    const cwd = project("\uFEFF" + JSON.stringify(servers({ a: { command: "x" } })));
    expect(loadMcpConfig({ cwd, env: {} }).servers.map((s) => s.name)).toEqual(["a"]);
  });

  test("wrong top-level shape → a warning", () => {
    const { warnings } = loadMcpConfig({ cwd: project({ servers: {} }), env: {} });
    expect(warnings).toEqual(['.mcp.json: expected an object {"mcpServers": {"<name>": {"command": ...}}}']);
  });

  test("each invalid entry is skipped with a warning naming the server and the problem", () => {
    const cwd = project(
      servers({
        good: { command: "ok" },
        nocmd: { args: [] },
        numcmd: { command: 42 },
        badargs: { command: "x", args: ["a", 3] },
        argsobj: { command: "x", args: "a b" },
        badenv: { command: "x", env: { PORT: 8080 } },
        envarr: { command: "x", env: ["A=1"] },
        http: { type: "http" },
        badurl: { type: "sse", url: "not a url" },
        ftp: { url: "ftp://localhost/mcp" },
        hdr: { type: "http", url: "http://localhost:1/mcp", headers: { "X-Port": 1 } },
        ws: { type: "websocket", url: "ws://localhost:1" },
        notobj: "srv --flag",
      }),
    );
    const { servers: s, warnings } = loadMcpConfig({ cwd, env: {} });
    expect(s.map((x) => x.name)).toEqual(["good"]);
    expect(warnings).toEqual([
      '.mcp.json: server "nocmd": "command" must be a non-empty string; skipped',
      '.mcp.json: server "numcmd": "command" must be a non-empty string; skipped',
      '.mcp.json: server "badargs": "args" must be an array of strings (args[1] is a number); skipped',
      '.mcp.json: server "argsobj": "args" must be an array of strings; skipped',
      '.mcp.json: server "badenv": "env" value for PORT must be a string (is a number); skipped',
      '.mcp.json: server "envarr": "env" must be an object of strings; skipped',
      '.mcp.json: server "http": "url" must be a non-empty string; skipped',
      '.mcp.json: server "badurl": "url" is not a valid URL ("not a url"); skipped',
      '.mcp.json: server "ftp": "url" must be http:// or https:// (is ftp:); skipped',
      '.mcp.json: server "hdr": "headers" value for X-Port must be a string (is a number); skipped',
      '.mcp.json: server "ws": "type" is "websocket": not a transport (expected "stdio", "http" or "sse"); skipped',
      '.mcp.json: server "notobj": expected an object with "command" or "url"; skipped',
    ]);
  });

  test("http and sse entries (a url without type is http); ${VAR} expands in url and headers, kept as written for display", () => {
    const cwd = project(
      servers({
        remote: { type: "http", url: "https://${HOST:-mcp.example.com}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        legacy: { type: "sse", url: "http://127.0.0.1:8080/sse" },
        bare: { url: "http://127.0.0.1:9/mcp" },
      }),
    );
    const { servers: s, warnings } = loadMcpConfig({ cwd, env: { TOKEN: "t0k" } });
    expect(warnings).toEqual([]);
    expect(s).toEqual([
      {
        type: "http",
        name: "remote",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer t0k" },
        written: { url: "https://${HOST:-mcp.example.com}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        origin: fromProject(cwd),
      },
      {
        type: "sse",
        name: "legacy",
        url: "http://127.0.0.1:8080/sse",
        headers: {},
        written: { url: "http://127.0.0.1:8080/sse", headers: {} },
        origin: fromProject(cwd),
      },
      {
        type: "http",
        name: "bare",
        url: "http://127.0.0.1:9/mcp",
        headers: {},
        written: { url: "http://127.0.0.1:9/mcp", headers: {} },
        origin: fromProject(cwd),
      },
    ]);
    const unset = loadMcpConfig({ cwd, env: {} }).warnings;
    expect(unset).toEqual(['.mcp.json: server "remote": environment variable TOKEN not set (left as written)']);
  });

  test('explicit type "stdio" is accepted', () => {
    const cwd = project(servers({ a: { type: "stdio", command: "x" } }));
    expect(loadMcpConfig({ cwd, env: {} })).toEqual({
      servers: [{ type: "stdio", name: "a", command: "x", args: [], env: {}, written: { command: "x", args: [] }, origin: fromProject(cwd) }],
      warnings: [],
    });
  });

  test("${VAR} and ${VAR:-default} expand in command, args and env values", () => {
    const cwd = project(
      servers({
        a: {
          command: "${BIN_DIR}/srv",
          args: ["--port", "${PORT:-8080}", "--host=${HOST:-localhost}", "plain $HOME"],
          env: { TOKEN: "${SECRET}", MODE: "${MODE:-dev}", EMPTY: "${EMPTY:-fallback}" },
        },
      }),
    );
    const env = { BIN_DIR: "/opt/bin", HOST: "example", SECRET: "s3cr3t", EMPTY: "" };
    const { servers: s, warnings } = loadMcpConfig({ cwd, env });
    expect(warnings).toEqual([]);
    expect(s[0]).toEqual({
      type: "stdio",
      name: "a",
      command: "/opt/bin/srv",
      args: ["--port", "8080", "--host=example", "plain $HOME"],
      // Only the variables named in the config; the transport adds this to the inherited environment.
      env: { TOKEN: "s3cr3t", MODE: "dev", EMPTY: "" },
      // As written, for display: a secret in args stays a ${VAR} reference there.
      written: { command: "${BIN_DIR}/srv", args: ["--port", "${PORT:-8080}", "--host=${HOST:-localhost}", "plain $HOME"] },
      origin: fromProject(cwd),
    });
  });

  test("an unset variable without default → a warning naming server and variable, text left as written, no values leaked", () => {
    const cwd = project(servers({ db: { command: "srv", args: ["${DB_URL}", "${KNOWN}"], env: { A: "${API_KEY}", B: "${KNOWN}" } } }));
    const { servers: s, warnings } = loadMcpConfig({ cwd, env: { KNOWN: "visible-secret-value" } });
    expect(stdio(s[0]).args).toEqual(["${DB_URL}", "visible-secret-value"]);
    expect(stdio(s[0]).env.A).toBe("${API_KEY}");
    expect(warnings).toEqual(['.mcp.json: server "db": environment variables DB_URL, API_KEY not set (left as written)']);
    expect(warnings.join("\n")).not.toContain("visible-secret-value");
  });

  test("opts.env defaults to process.env", () => {
    process.env.CONFIG_TEST_VAR = "from-process";
    try {
      const cwd = project(servers({ a: { command: "${CONFIG_TEST_VAR}" } }));
      expect(stdio(loadMcpConfig({ cwd }).servers[0]).command).toBe("from-process");
    } finally {
      delete process.env.CONFIG_TEST_VAR;
    }
  });

  test("--mcp-config files (relative to cwd) and JSON strings merge in order, later wins by name", () => {
    const cwd = project(servers({ a: { command: "from-project" }, b: { command: "b" } }));
    mkdirSync(join(cwd, "conf"));
    writeFileSync(join(cwd, "conf/extra.json"), JSON.stringify(servers({ a: { command: "from-file" }, c: { command: "c" } })));
    const inline = JSON.stringify(servers({ c: { command: "from-inline" } }));
    const { servers: s, warnings } = loadMcpConfig({ cwd, extra: ["conf/extra.json", inline], env: {} });
    expect(warnings).toEqual([]);
    expect(Object.fromEntries(s.map((x) => [x.name, stdio(x).command]))).toEqual({ a: "from-file", b: "b", c: "from-inline" });
  });

  test("strict ignores .mcp.json and uses only extra", () => {
    const cwd = project(servers({ a: { command: "project" } }));
    const inline = JSON.stringify(servers({ z: { command: "z" } }));
    expect(loadMcpConfig({ cwd, strict: true, extra: [inline], env: {} }).servers.map((x) => x.name)).toEqual(["z"]);
    expect(loadMcpConfig({ cwd, strict: true, env: {} })).toEqual({ servers: [], warnings: [] });
  });

  test("problems in --mcp-config values are labelled with the value", () => {
    const cwd = project();
    writeFileSync(join(cwd, "broken.json"), "{ nope }");
    const { warnings } = loadMcpConfig({ cwd, extra: ["missing.json", "broken.json", "{ bad"], env: {} });
    expect(warnings).toEqual([
      "MCP config missing.json: file not found",
      expect.stringMatching(/^MCP config broken\.json: invalid JSON at line 1:3: /),
      expect.stringMatching(/^MCP config \(inline JSON\): invalid JSON at line 1:3: /),
    ]);
  });

  test("a directory given as --mcp-config → cannot read, not a crash", () => {
    const cwd = project();
    mkdirSync(join(cwd, "dir.json"));
    expect(loadMcpConfig({ cwd, extra: ["dir.json"], env: {} }).warnings).toEqual(["MCP config dir.json: cannot read (EISDIR)"]);
  });
});

describe("a loaded config starts a real server", () => {
  test("expanded command, args and env reach the process; env adds to the inherited environment", async () => {
    const cwd = project(
      servers({ fx: { command: "${FX_BUN}", args: ["${FX_SCRIPT}", "--log-file", "${FX_LOG:-log.txt}"], env: { FX_TOKEN: "tok-${FX_USER}" } } }),
    );
    const { servers: loaded, warnings } = loadMcpConfig({ cwd, env: { FX_BUN: BUN, FX_SCRIPT: FIXTURE_SERVER, FX_USER: "ann" } });
    expect(warnings).toEqual([]);
    const server = stdio(loaded[0]);
    // What the transport does (MCP-NOTES: env is added to the inherited environment, never replaces it).
    const proc = Bun.spawn([server.command, ...server.args], {
      cwd,
      env: { ...process.env, FX_INHERITED: "yes", ...server.env },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const peer = Peer.attach(proc);
    try {
      await peer.handshake();
      const env = async (name: string) => (await peer.request("tools/call", { name: "env", arguments: { name } })).result.content[0].text;
      expect(await env("FX_TOKEN")).toBe("tok-ann");
      expect(await env("FX_INHERITED")).toBe("yes");
      expect(await peer.close()).toBe(0);
      expect(readFileSync(join(cwd, "log.txt"), "utf8")).toContain('"initialize"');
    } finally {
      proc.kill("SIGKILL");
    }
  });
});

describe("expandVars", () => {
  test("default applies only when unset; an empty value is kept (Claude Code semantics)", () => {
    const unset = new Set<string>();
    expect(expandVars("${A:-x}|${B:-y}|${C:-}|${D}", { A: "", B: "b" }, unset)).toBe("|b||${D}");
    expect([...unset]).toEqual(["D"]);
  });

  test("malformed references are left alone", () => {
    const unset = new Set<string>();
    expect(expandVars("${} ${1X} $X ${X", { X: "v" }, unset)).toBe("${} ${1X} $X ${X");
    expect(unset.size).toBe(0);
  });
});

describe("jsonErrorOffset", () => {
  test.each([
    ['{"a": 1,}', 8],
    ['{"a": tru}', 6],
    ["[1, 2", 5],
    ['{"a": "x\ny"}', 8],
    ['{"a": 01}', 7],
    ['{"a": "\\q"}', 8],
    ["{} extra", 3],
    ["", 0],
  ])("%j fails at offset %d", (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  test("valid JSON → -1; deep nesting does not throw", () => {
    expect(jsonErrorOffset('{"a": [1, -2.5e3, true, null, "\\u00e9\\n"], "b": {}}')).toBe(-1);
    expect(() => jsonErrorOffset("[".repeat(1_000_000))).not.toThrow();
  });

  test("lineColumn is 1-based", () => {
    expect(lineColumn("ab\ncd\nef", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn("ab\ncd\nef", 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn("ab\ncd\nef", 8)).toEqual({ line: 3, column: 3 });
  });
});

describe("the oauth block of a remote server", () => {
  test("parsed with ${VAR} expansion; a bad field skips the entry with one line naming it", () => {
    const cwd = project(
      servers({
        good: { type: "http", url: "https://a.example/mcp", oauth: { clientId: "${ID}", clientSecret: "${SECRET}", callbackPort: 8976, scopes: ["read"] } },
        bad: { url: "https://b.example/mcp", oauth: { callbackPort: "soon" } },
      }),
    );
    const { servers: s, warnings } = loadMcpConfig({ cwd, env: { ID: "app", SECRET: "s3cret" } });
    expect(s.map((x) => [x.name, (x.type === "http" || x.type === "sse") && x.oauth])).toEqual([
      ["good", { grantType: "authorization_code", clientId: "app", clientSecret: "s3cret", callbackPort: 8976, scopes: ["read"] }],
    ]);
    expect(warnings).toEqual(['.mcp.json: server "bad": "oauth.callbackPort" must be a port number (1-65535); skipped']);
  });
});
