/**
 * The era negotiation (MCP 2026-07-28, basic/versioning §Backward Compatibility) through the real
 * program's `mcp call`, against the scripted era fixture (fixtures/servers/era-server.ts) over stdio
 * and over HTTP: each outcome of `initialize` first (a result, -32022 with a list, another error,
 * a timeout, garbage) and of discovery first (`MCP_PROTOCOL_NEGOTIATION=auto`, the entry's
 * `protocolVersion`), and the remembered verdict.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { verdictKey } from "../../../lib/mcp/registry/era-verdicts.ts";
import { BUN, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const ERA_SERVER = join(ROOT, "fixtures/servers/era-server.ts");
const servers: { kill(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.kill();
});

/** An `.mcp.json` entry for the era fixture with `flags`, over `transport`; its received methods go to `log`. */
async function entry(transport: "stdio" | "http", log: string, flags: string[], extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const args = [ERA_SERVER, "--log", log, ...flags];
  if (transport === "stdio") return { command: BUN, args, ...extra };
  const proc = Bun.spawn([BUN, ...args, "--http"], { stdout: "pipe", stderr: "ignore" });
  servers.push(proc);
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
  return { type: "http", url: text.trim(), ...extra };
}

async function call(transport: "stdio" | "http", flags: string[], opts: { env?: Record<string, string>; extra?: Record<string, unknown>; dir?: string } = {}) {
  const dir = opts.dir ?? tempDir("era-");
  const log = join(dir, "methods.log");
  rmSync(log, { force: true });
  writeMcpConfig(dir, { era: await entry(transport, log, flags, opts.extra) });
  const r = await runAgent(["mcp", "call", "era", "echo", '{"text":"hi"}'], { cwd: dir, env: { MCP_TIMEOUT: "30000", ...opts.env } });
  const methods = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  return { ...r, methods, dir };
}

for (const transport of ["stdio", "http"] as const) {
  describe(`${transport}: initialize first (the default)`, () => {
    test("a result: the 2025 era, exactly as before (no server/discover)", async () => {
      const r = await call(transport, ["--initialize", "answer"]);
      expect([r.code, r.stdout]).toEqual([0, "legacy: hi\n"]);
      expect(r.methods).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call"]);
    });

    test("-32022 naming 2026-07-28: that revision, starting with server/discover", async () => {
      const r = await call(transport, ["--initialize", "refuse"]);
      expect([r.code, r.stdout]).toEqual([0, "modern: hi\n"]);
      expect(r.methods).toEqual(["initialize", "server/discover", "tools/list", "tools/call"]);
    });

    test("an answer naming 2026-07-28: falls forward, no notifications/initialized", async () => {
      const r = await call(transport, ["--initialize", "modern"]);
      expect([r.code, r.stdout]).toEqual([0, "modern: hi\n"]);
      expect(r.methods.slice(0, 2)).toEqual(["initialize", "server/discover"]);
    });

    test("another JSON-RPC error: one server/discover probe, which finds the modern era", async () => {
      const r = await call(transport, ["--initialize", "error", "--discover", "answer"]);
      expect([r.code, r.stdout]).toEqual([0, "modern: hi\n"]);
      expect(r.methods.slice(0, 2)).toEqual(["initialize", "server/discover"]);
    });

    test("another JSON-RPC error and a failed probe: the initialize error is the failure, never a silent fallback", async () => {
      const r = await call(transport, ["--initialize", "error", "--discover", "error"]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('MCP server "era"');
      expect(r.stderr).toContain("initialize failed: MCP error -32601");
      expect(r.methods).toEqual(["initialize", "server/discover"]);
    });

    test("a refusal naming no revision we speak: one line with both lists", async () => {
      const r = await call(transport, ["--initialize", "unspoken"]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("speaks 2027-01-01 only; this client speaks 2025-11-25 and 2026-07-28");
      expect(r.stderr).not.toContain("HTTP+SSE");
    });

    test("no answer: the timeout is the failure, no probe", async () => {
      // Long enough for a loaded machine to start the server, which logs the initialize it never answers.
      const r = await call(transport, ["--initialize", "silent"], { env: { MCP_TIMEOUT: "5000" } });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("initialize");
      expect(r.methods).toEqual(["initialize"]);
    });

    test("garbage: a clear failure, no probe", async () => {
      // Long enough for a loaded machine to start the server and print its garbage before the timeout.
      const r = await call(transport, ["--initialize", "garbage"], { env: { MCP_TIMEOUT: "5000" } });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(transport === "stdio" ? /not JSON-RPC|not JSON/ : /is not JSON-RPC/);
      expect(r.methods).toEqual(["initialize"]);
    });
  });

  describe(`${transport}: discovery first (MCP_PROTOCOL_NEGOTIATION=auto)`, () => {
    const auto = { MCP_PROTOCOL_NEGOTIATION: "auto" };

    test("a result: modern, no initialize at all", async () => {
      const r = await call(transport, ["--discover", "answer"], { env: auto });
      expect([r.code, r.stdout]).toEqual([0, "modern: hi\n"]);
      expect(r.methods).toEqual(["server/discover", "tools/list", "tools/call"]);
    });

    test("-32022 with a list: retried in the revision it names", async () => {
      const r = await call(transport, ["--discover", "refuse"], { env: auto });
      // The fixture refuses every discover: the retry's refusal is the failure (one retry, no loop).
      expect(r.code).not.toBe(0);
      expect(r.methods).toEqual(["server/discover", "server/discover"]);
    });

    for (const how of ["error", "garbage", "silent", ...(transport === "http" ? ["plain-400"] : [])]) {
      test(`${how}: the 2025 era, falling back to initialize on the same ${transport === "stdio" ? "process" : "URL"}`, async () => {
        // The silent server costs the whole timeout; the others answer, and must do so within it on a loaded machine.
        const r = await call(transport, ["--discover", how], { env: { ...auto, MCP_TIMEOUT: "5000" } });
        expect([r.code, r.stdout]).toEqual([0, "legacy: hi\n"]);
        expect(r.methods.slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
      });
    }

    test('the entry\'s "protocolVersion": "2026-07-28" opts in just as well', async () => {
      const r = await call(transport, ["--discover", "answer"], { extra: { protocolVersion: "2026-07-28" } });
      expect([r.code, r.stdout]).toEqual([0, "modern: hi\n"]);
      expect(r.methods[0]).toBe("server/discover");
    });
  });
}

describe("remembered verdicts", () => {
  test("a legacy verdict is remembered in the config folder: the next opted-in run pays no probe", async () => {
    const config = tempDir("era-config-");
    const env = { MCP_PROTOCOL_NEGOTIATION: "auto", CLAUDE_CONFIG_DIR: config };
    const first = await call("stdio", ["--discover", "error"], { env });
    expect(first.methods[0]).toBe("server/discover");
    const file = JSON.parse(readFileSync(join(config, "mcp-protocol-eras.json"), "utf8"));
    // Keyed by a fingerprint of the command, never by the server's name.
    expect(Object.keys(file.verdicts).every((k) => k.startsWith("stdio:") && !k.includes("era"))).toBe(true);
    // The same command, args, env and cwd: the same fingerprint.
    const second = await call("stdio", ["--discover", "error"], { env, dir: first.dir });
    expect([second.code, second.stdout]).toEqual([0, "legacy: hi\n"]);
    expect(second.methods[0]).toBe("initialize");
  });

  test("a remembered legacy verdict that no longer holds: initialize first, -32022 switches, the verdict becomes modern", async () => {
    const config = tempDir("era-config-");
    const dir = tempDir("era-");
    const args = [ERA_SERVER, "--log", join(dir, "methods.log"), "--initialize", "refuse"];
    const key = verdictKey({ type: "stdio", name: "any", command: BUN, args, env: {} }, dir)!;
    const file = join(config, "mcp-protocol-eras.json");
    writeFileSync(file, JSON.stringify({ verdicts: { [key]: { era: "legacy", protocolVersion: "2025-11-25", at: "2026-01-01T00:00:00Z" } } }));
    const r = await call("stdio", ["--initialize", "refuse"], { env: { MCP_PROTOCOL_NEGOTIATION: "auto", CLAUDE_CONFIG_DIR: config }, dir });
    expect([r.code, r.stdout]).toEqual([0, "modern: hi\n"]);
    expect(r.methods.slice(0, 2)).toEqual(["initialize", "server/discover"]);
    expect(JSON.parse(readFileSync(file, "utf8")).verdicts[key]).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
  });

  test("without the opt-in nothing is read or written", async () => {
    const config = tempDir("era-config-");
    const r = await call("stdio", ["--initialize", "refuse"], { env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.stdout).toBe("modern: hi\n");
    expect(existsSync(join(config, "mcp-protocol-eras.json"))).toBe(false);
  });
});
