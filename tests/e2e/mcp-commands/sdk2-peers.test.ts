/**
 * Real MCP 2026-07-28 peers (the TypeScript SDK v2 server, fixtures/servers/sdk2-server.ts) through
 * the real program: the strict modern-only HTTP handler (`legacy: 'reject'`), the both-eras default
 * handler, and its stdio entry, each through `-p` and the `mcp` commands (list, call, get).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { project, stopProjects, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { BUN, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const SDK2 = join(ROOT, "fixtures/servers/sdk2-server.ts");
const running: { proc: ReturnType<typeof Bun.spawn>; seen: () => Promise<Seen[]> }[] = [];
afterEach(() => {
  stopProjects();
  for (const r of running.splice(0)) r.proc.kill();
});

interface Seen {
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** Starts the SDK v2 HTTP fixture; `seen()` stops it and returns every request it logged. */
async function sdk2Http(...flags: string[]): Promise<{ url: string; seen: () => Promise<Seen[]> }> {
  const proc = Bun.spawn([BUN, SDK2, "http", ...flags], { stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
  const seen = async () => {
    proc.kill();
    const err = await new Response(proc.stderr).text();
    return err
      .split("\n")
      .filter((l) => l.startsWith("seen "))
      .map((l) => JSON.parse(l.slice(5)) as Seen);
  };
  running.push({ proc, seen });
  return { url: out.trim(), seen };
}

const stdio = (...flags: string[]) => ({ command: BUN, args: [SDK2, "stdio", ...flags] });

async function inspector(servers: Record<string, unknown>, args: string[], env: Record<string, string> = {}) {
  const dir = tempDir("sdk2-");
  writeMcpConfig(dir, servers);
  return runAgent(args, { cwd: dir, env });
}

describe("the strict modern-only SDK v2 HTTP server (createMcpHandler, legacy: 'reject')", () => {
  test("mcp list, mcp call and mcp get: connected in the 2026-07-28 era", async () => {
    const s = await sdk2Http("--strict");
    const servers = { m: { type: "http", url: s.url } };
    const list = await inspector(servers, ["mcp", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/m\s+connected\s+http .* 4 tools/);
    const call = await inspector(servers, ["mcp", "call", "m", "shout", '{"text":"hi"}']);
    expect([call.code, call.stdout, call.stderr]).toEqual([0, "HI\n", ""]);
    const get = await inspector(servers, ["mcp", "get", "m"]);
    expect(get.stdout).toContain("protocol:      2026-07-28 (modern era");
    expect(get.stdout).toContain("server:        sdk2-fixture 2.4.0");
  });

  test("-p: the model calls a tool; every request carries the envelope with exactly {roots:{},sampling:{}} and the standard headers; no session", async () => {
    const s = await sdk2Http("--strict");
    const p = project({ m: { type: "http", url: s.url } }, [reply(toolUse("mcp__m__region", { region: "eu-west 1" })), reply(text("done"))]);
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(toolResult(p.model.requests[1]!).content).toBe("region eu-west 1");
    const seen = await s.seen();
    // The course's initialize went first and was refused; from then on, the modern era.
    expect(JSON.parse(seen[0]!.body).method).toBe("initialize");
    const modern = seen.slice(1);
    expect(modern.map((q) => JSON.parse(q.body).method)).toContain("tools/call");
    for (const q of modern) {
      const body = JSON.parse(q.body);
      expect(body.params._meta["io.modelcontextprotocol/clientCapabilities"]).toEqual({ roots: {}, sampling: {} });
      expect(body.params._meta["io.modelcontextprotocol/clientInfo"]).toEqual({ name: "claude-code", version: "1.0.0" });
      expect(q.headers["mcp-protocol-version"]).toBe("2026-07-28");
      expect(q.headers["mcp-method"]).toBe(body.method);
      expect(q.headers["mcp-session-id"]).toBeUndefined();
      expect(q.method).toBe("POST");
    }
    const call = modern.find((q) => JSON.parse(q.body).method === "tools/call")!;
    expect([call.headers["mcp-name"], call.headers["mcp-param-region"]]).toEqual(["region", "eu-west 1"]);
    expect(seen.some((q) => q.method === "GET" || q.method === "DELETE")).toBe(false);
  });

  test("MRTR: an input_required tools/call is answered by the elicitation policy and re-sent with inputResponses and requestState", async () => {
    const s = await sdk2Http("--strict");
    const r = await inspector({ m: { type: "http", url: s.url } }, ["mcp", "call", "--elicitation", "accept-defaults", "m", "confirm", "{}"]);
    expect([r.code, r.stdout]).toEqual([0, 'confirmed {"yes":true}\n']);
    const calls = (await s.seen()).map((q) => JSON.parse(q.body)).filter((b) => b.method === "tools/call");
    expect(calls).toHaveLength(2);
    expect(calls[1].id).not.toBe(calls[0].id);
    expect(calls[1].params.requestState).toBe("state-1");
    expect(calls[1].params.inputResponses).toEqual({ ok: { action: "accept", content: { yes: true } } });
    expect(calls[0].params.inputResponses).toBeUndefined();
  });

  test("a tools/call past MCP_TOOL_TIMEOUT is cancelled by closing its stream: no notifications/cancelled, never sent twice", async () => {
    const s = await sdk2Http("--strict");
    const p = project({ m: { type: "http", url: s.url } }, [reply(toolUse("mcp__m__slow", { ms: 3000 })), reply(text("gave up"))]);
    const r = await p.run("go", { env: { MCP_TOOL_TIMEOUT: "300" } });
    expect([r.code, r.stdout]).toEqual([0, "gave up\n"]);
    expect(JSON.stringify(toolResult(p.model.requests[1]!))).toContain("timed out");
    const bodies = (await s.seen()).map((q) => JSON.parse(q.body));
    expect(bodies.filter((b) => b.method === "tools/call")).toHaveLength(1);
    expect(bodies.some((b) => b.method === "notifications/cancelled")).toBe(false);
  });

  test("without an elicitation policy the server is told we declared no elicitation (-32021): one line, never silence", async () => {
    const s = await sdk2Http("--strict");
    const r = await inspector({ m: { type: "http", url: s.url } }, ["mcp", "call", "m", "confirm", "{}"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("MCP error -32021");
  });
});

describe("the both-eras SDK v2 HTTP server (the default handler)", () => {
  test("by default: initialize is answered, the 2025 era, the course's frame first", async () => {
    const s = await sdk2Http();
    const r = await inspector({ m: { type: "http", url: s.url } }, ["mcp", "get", "m"]);
    expect(r.stdout).toContain("protocol:      2025-11-25 (legacy era");
    const first = JSON.parse((await s.seen())[0]!.body);
    expect(first).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "claude-code", version: "1.0.0" } },
    });
  });

  test("MCP_PROTOCOL_NEGOTIATION=auto: discovery first, the 2026-07-28 era", async () => {
    const s = await sdk2Http();
    const r = await inspector({ m: { type: "http", url: s.url } }, ["mcp", "call", "m", "shout", '{"text":"auto"}'], { MCP_PROTOCOL_NEGOTIATION: "auto" });
    expect([r.code, r.stdout]).toEqual([0, "AUTO\n"]);
    expect(JSON.parse((await s.seen())[0]!.body).method).toBe("server/discover");
  });
});

describe("the SDK v2 stdio entry (serveStdio)", () => {
  test("strict (legacy: 'reject'): -32022 to initialize, then the 2026-07-28 era on the same process", async () => {
    const r = await inspector({ m: stdio("--strict") }, ["mcp", "call", "m", "shout", '{"text":"over stdio"}', "--debug"]);
    expect([r.code, r.stdout]).toEqual([0, "OVER STDIO\n"]);
    expect(r.stderr).toContain("negotiation: initialize refused with -32022, supported: 2026-07-28");
    expect(r.stderr).not.toContain('"method":"notifications/initialized"');
  });

  test("both eras: the 2025 handshake, exactly as today", async () => {
    const r = await inspector({ m: stdio() }, ["mcp", "get", "m"]);
    expect(r.stdout).toContain("protocol:      2025-11-25 (legacy era");
  });

  test("-p over strict stdio: the tool answers, stdout holds only the answer", async () => {
    const p = project({ m: stdio("--strict") }, [reply(toolUse("mcp__m__shout", { text: "p" })), reply(text("ok"))]);
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "ok\n", ""]);
    expect(toolResult(p.model.requests[1]!).content).toBe("P");
  });
});
