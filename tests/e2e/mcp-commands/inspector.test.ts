/**
 * `agent mcp …` through the real program, against the fixture server and the npm reference
 * server `@modelcontextprotocol/server-everything`. No model server and no API key anywhere.
 */
import { NO_SERVERS } from "../../../lib/cli/ui/server-lines.ts";
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT, fixtureServer, isAlive, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything");
const EVERYTHING_BIN = join(EVERYTHING, JSON.parse(readFileSync(join(EVERYTHING, "package.json"), "utf8")).bin["mcp-server-everything"]);
const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem");
const FILESYSTEM_BIN = join(FILESYSTEM, JSON.parse(readFileSync(join(FILESYSTEM, "package.json"), "utf8")).bin["mcp-server-filesystem"]);
/** The package targets Node; Bun runs it too when Node is absent. */
const NODE = Bun.which("node") ?? BUN;

/** Runs `agent mcp …args` in `dir` with no API key. */
const mcp = (dir: string, ...args: string[]) => runAgent(["mcp", ...args], { cwd: dir, env: { ANTHROPIC_API_KEY: undefined } });

/** A folder whose .mcp.json holds a working fixture server `fx` and one that exits at once. */
function fixtureDir(): string {
  const dir = tempDir();
  writeMcpConfig(dir, {
    fx: { ...fixtureServer(), env: { SECRET_TOKEN: "s3cr3t-value" } },
    broken: fixtureServer("--exit-immediately"),
  });
  return dir;
}

/** Per-test limit (ms): each test starts real servers, some on Node. */
const TEST_TIMEOUT_MS = 120_000; // ends a hang only: above the screen wait (60 s), never a judge of speed

const pids = (file: string) => readFileSync(file, "utf8").trim().split("\n").map(Number);

describe("mcp inspector, fixture server", () => {
  test(
    "list: every server with its status, counts, and the failure reason; exit 1 when one failed",
    async () => {
      const dir = fixtureDir();
      const r = await mcp(dir, "list");
      expect(r.code).toBe(1);
      const lines = r.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^fx\s+connected\s+stdio \S+ \S+fixture-server\.ts {2}14 tools, 3 prompts, 3 resources$/);
      // Under each row, the scope and file its entry comes from.
      expect(lines[1]).toBe("        project (.mcp.json)");
      expect(lines[2]).toMatch(
        /^broken\s+failed\s+stdio \S+ \S+fixture-server\.ts --exit-immediately {2}exited with code 1 before the handshake \(stderr: .*--exit-immediately/,
      );
      const json = JSON.parse((await mcp(dir, "list", "--json")).stdout);
      const source = join(dir, ".mcp.json");
      expect(json).toEqual([
        { name: "fx", status: "connected", tools: 14, prompts: 3, resources: 3, scope: "project", source },
        { name: "broken", status: "failed", error: "exited with code 1 before the handshake", tools: 0, prompts: 0, resources: 0, scope: "project", source },
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "list with no servers configured says so and succeeds",
    async () => {
      const r = await mcp(tempDir(), "list");
      expect(r).toMatchObject({ code: 0, stdout: `${NO_SERVERS}\n` });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "list with a .mcp.json that gives no usable server: the file's problem, then exit 1",
    async () => {
      const dir = tempDir();
      await Bun.write(join(dir, ".mcp.json"), '{"mcpServers": {"a": {"args": ["x"]}}}');
      const r = await mcp(dir, "list");
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('server "a"');
      expect(r.stdout).toBe("No MCP servers could be loaded (see above).\n");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "get shows command and args as written: a ${VAR} in args is never expanded on screen",
    async () => {
      const dir = tempDir();
      writeMcpConfig(dir, { fx: { ...fixtureServer(), args: [...fixtureServer().args, "--stderr-lines", "${LINES}"] } });
      const r = await runAgent(["mcp", "get", "fx"], { cwd: dir, env: { ANTHROPIC_API_KEY: undefined, LINES: "0" } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("--stderr-lines ${LINES}");
      const json = JSON.parse((await runAgent(["mcp", "get", "fx", "--json"], { cwd: dir, env: { LINES: "0" } })).stdout);
      expect(json.config.args.at(-1)).toBe("${LINES}");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "prompts of a server that did not declare them are asked for, as /mcp__… does",
    async () => {
      const dir = tempDir();
      writeMcpConfig(dir, { fx: fixtureServer("--undeclared-prompts") });
      const r = await runAgent(["mcp", "prompts", "fx"], { cwd: dir, env: { ANTHROPIC_API_KEY: undefined } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("greet");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "--verbose or --debug before `mcp` still runs the inspector, with that flag",
    async () => {
      const dir = tempDir();
      writeMcpConfig(dir, { fx: fixtureServer() });
      const r = await runAgent(["--debug", "mcp", "list"], { cwd: dir, env: { ANTHROPIC_API_KEY: undefined } });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^fx\s+connected/);
      expect(r.stderr).toContain('"method":"initialize"');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "any global flag before `mcp` runs the inspector with it; one it does not know is a usage error",
    async () => {
      const dir = fixtureDir();
      const extra = JSON.stringify({ mcpServers: { other: fixtureServer() } });
      const run = (...argv: string[]) => runAgent(argv, { cwd: dir, env: { ANTHROPIC_API_KEY: undefined } });
      const strict = await run("--strict-mcp-config", "mcp", "list");
      expect(strict).toMatchObject({ code: 0, stdout: `${NO_SERVERS}\n` });
      const tools = await run("--mcp-config", extra, "mcp", "tools", "other");
      expect(tools.code).toBe(0);
      expect(tools.stdout).toContain("echo  Returns its text argument.");
      const unknown = await run("--model", "claude-x", "mcp", "list");
      expect(unknown.code).toBe(2);
      expect(unknown.stdout).toBe("");
      expect(unknown.stderr).toStartWith("error: unknown option --model (see agent mcp --help)\n");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "get: config with env values masked, capabilities, serverInfo, instructions",
    async () => {
      const dir = fixtureDir();
      const r = await mcp(dir, "get", "fx");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("SECRET_TOKEN=***");
      expect(r.stdout).not.toContain("s3cr3t-value");
      expect(r.stdout).toMatch(/server: +fixture /);
      expect(r.stdout).toContain("tools (listChanged)");
      const json = JSON.parse((await mcp(dir, "get", "fx", "--json")).stdout);
      expect(json.config.env).toEqual({ SECRET_TOKEN: "***" });
      expect(json.config.args.at(-1)).toEndWith("fixture-server.ts");
      expect(json.serverInfo.name).toBe("fixture");
      expect(json.capabilities.prompts).toBeDefined();
      expect(json.instructions).toBeString();
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "get of a failed server shows the reason and its stderr; exit 1",
    async () => {
      const r = await mcp(fixtureDir(), "get", "broken");
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("failed: exited with code 1 before the handshake");
      expect(r.stdout).toContain("--exit-immediately");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "tools, prompts and resources: text and --json",
    async () => {
      const dir = fixtureDir();
      const tools = await mcp(dir, "tools", "fx");
      expect(tools.code).toBe(0);
      expect(tools.stdout).toContain("echo  Returns its text argument.\n    text: string");
      const toolsJson = JSON.parse((await mcp(dir, "tools", "fx", "--json")).stdout);
      expect(toolsJson.find((t: any) => t.name === "add").inputSchema.required).toEqual(["a", "b"]);
      expect((await mcp(dir, "prompts", "fx")).stdout).toContain("greet <name> [style]");
      const resources = JSON.parse((await mcp(dir, "resources", "fx", "--json")).stdout);
      expect(resources.map((r: any) => r.uri)).toEqual(["fixture://hello", "fixture://blob", "fixture://image"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "call: the result's text; isError exits 1; --json is the raw result",
    async () => {
      const dir = fixtureDir();
      expect(await mcp(dir, "call", "fx", "echo", '{"text":"héllo"}')).toMatchObject({ code: 0, stdout: "héllo\n" });
      expect(await mcp(dir, "call", "fx", "add", '{"a":2,"b":40}')).toMatchObject({ code: 0, stdout: "42\n" });
      expect(await mcp(dir, "call", "fx", "fail")).toMatchObject({ code: 1, stdout: "fixture failure\n" });
      const raw = await mcp(dir, "call", "fx", "fail", "--json");
      expect(raw.code).toBe(1);
      expect(JSON.parse(raw.stdout)).toEqual({ content: [{ type: "text", text: "fixture failure" }], isError: true });
      const rpc = await mcp(dir, "call", "fx", "rpc_error");
      expect(rpc.code).toBe(1);
      expect(rpc.stderr).toContain("fixture rpc error");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "call with bad JSON arguments: one stderr line, exit 2, no server started",
    async () => {
      const dir = tempDir();
      const pidFile = join(dir, "pids");
      writeMcpConfig(dir, { fx: fixtureServer("--pid-file", pidFile) });
      for (const bad of ["{text: 1}", "[1,2]"]) {
        const r = await mcp(dir, "call", "fx", "echo", bad);
        expect(r.code).toBe(2);
        expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
        expect(r.stderr).toStartWith("mcp call: arguments ");
        expect(r.stdout).toBe("");
      }
      expect(existsSync(pidFile)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "only the named server starts, and it is shut down at the end",
    async () => {
      const dir = tempDir();
      const [a, b] = [join(dir, "a.pids"), join(dir, "b.pids")];
      writeMcpConfig(dir, { a: fixtureServer("--pid-file", a), b: fixtureServer("--pid-file", b) });
      const r = await mcp(dir, "call", "a", "echo", '{"text":"x"}');
      expect(r.code).toBe(0);
      expect(existsSync(b)).toBe(false);
      expect(pids(a).filter(isAlive)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "prompt: positional arguments map like the slash command; a missing one is a usage error",
    async () => {
      const dir = fixtureDir();
      expect(await mcp(dir, "prompt", "fx", "greet", "Ann", "very", "formal")).toMatchObject({ code: 0, stdout: "user: Hello Ann (very formal)\n" });
      const json = JSON.parse((await mcp(dir, "prompt", "fx", "greet", "Bo", "--json")).stdout);
      expect(json.messages[0]).toEqual({ role: "user", content: { type: "text", text: "Hello Bo" } });
      const missing = await mcp(dir, "prompt", "fx", "greet");
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("usage: agent mcp prompt fx greet <name> [style]");
      const unknown = await mcp(dir, "prompt", "fx", "nope");
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('server "fx" has no prompt "nope" (prompts: greet, multi, needs_two)');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "read: a text resource as-is, a blob described; --json raw",
    async () => {
      const dir = fixtureDir();
      expect(await mcp(dir, "read", "fx", "fixture://hello")).toMatchObject({ code: 0, stdout: "hello from fixture\n" });
      expect((await mcp(dir, "read", "fx", "fixture://blob")).stdout).toBe("[binary resource fixture://blob, application/octet-stream, 16 bytes]\n");
      const json = JSON.parse((await mcp(dir, "read", "fx", "fixture://blob", "--json")).stdout);
      expect(json.contents[0]).toMatchObject({ uri: "fixture://blob", mimeType: "application/octet-stream" });
      expect(typeof json.contents[0].blob).toBe("string");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "an unknown server names the configured ones (exit 1); a failed one gives its reason",
    async () => {
      const dir = fixtureDir();
      const unknown = await mcp(dir, "tools", "nope");
      expect(unknown).toMatchObject({ code: 1, stdout: "" });
      expect(unknown.stderr).toBe('mcp tools: no MCP server named "nope" (configured: fx, broken)\n');
      const failed = await mcp(dir, "tools", "broken");
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('MCP server "broken" failed to start: exited with code 1 before the handshake');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "usage errors exit 2; --help exits 0",
    async () => {
      const dir = tempDir();
      for (const argv of [["frob"], [], ["tools"], ["read", "fx"], ["list", "--bogus"]]) {
        const r = await mcp(dir, ...argv);
        expect(r.code).toBe(2);
        expect(r.stdout).toBe("");
      }
      const help = await mcp(dir, "--help");
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("call <server> <tool> [json-args]");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "--mcp-config and --strict-mcp-config choose the servers",
    async () => {
      const dir = fixtureDir();
      const extra = JSON.stringify({ mcpServers: { other: fixtureServer() } });
      const r = await mcp(dir, "list", "--json", "--strict-mcp-config", "--mcp-config", extra);
      expect(JSON.parse(r.stdout).map((s: any) => s.name)).toEqual(["other"]);
      expect(r.code).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("mcp inspector, server-everything", () => {
  const dir = tempDir();
  writeMcpConfig(dir, { everything: { command: NODE, args: [EVERYTHING_BIN, "stdio"] } });

  test(
    "list and tools",
    async () => {
      const list = await mcp(dir, "list", "--json");
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout)[0]).toMatchObject({ name: "everything", status: "connected" });
      const tools = JSON.parse((await mcp(dir, "tools", "everything", "--json")).stdout);
      expect(tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "tools: enums as their values",
    async () => {
      const r = await mcp(dir, "tools", "everything");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('\n    messageType: "error" | "success" | "debug"  Type of message');
      expect(r.stdout).toContain('\n    resourceType?: "Text" | "Blob"\n');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "read: a text/plain blob is shown as its text",
    async () => {
      const r = await mcp(dir, "read", "everything", "demo://resource/dynamic/blob/1");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Resource 1: This is a base64 blob created at .+\n$/);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "call, prompt and read",
    async () => {
      expect(await mcp(dir, "call", "everything", "echo", '{"message":"hi there"}')).toMatchObject({ code: 0, stdout: "Echo: hi there\n" });
      const prompt = await mcp(dir, "prompt", "everything", "args-prompt", "Paris");
      expect(prompt.code).toBe(0);
      expect(prompt.stdout).toContain("Paris");
      const resources = JSON.parse((await mcp(dir, "resources", "everything", "--json")).stdout);
      const text = resources.find((r: any) => r.mimeType?.startsWith("text/"));
      const read = JSON.parse((await mcp(dir, "read", "everything", text.uri, "--json")).stdout);
      expect(read.contents[0].uri).toBe(text.uri);
      expect(read.contents[0].text.length).toBeGreaterThan(0);
      // The text listing ends with the server's resource templates, as written.
      const listed = (await mcp(dir, "resources", "everything")).stdout;
      expect(listed).toContain(`${text.uri}  `);
      expect(listed).toMatch(/\nResource templates:\ndemo:\/\/resource\/dynamic\/text\/\{resourceId\} {2}/);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("mcp inspector, server-filesystem", () => {
  test(
    "tools: arrays as <item>[]",
    async () => {
      const dir = tempDir();
      writeMcpConfig(dir, { files: { command: NODE, args: [FILESYSTEM_BIN, "."] } });
      const r = await mcp(dir, "tools", "files");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("\n    paths: string[]  Array of file paths to read.");
      expect(r.stdout).toContain("\n    edits: object[]\n");
      expect(r.stdout).toContain("\n    excludePatterns?: string[]\n");
    },
    TEST_TIMEOUT_MS,
  );
});
