/**
 * The HTTP transports against our HTTP fixture server, message by message: what goes on the wire
 * (headers, methods, session ids) and what comes back through `messages`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type HttpFixture, startHttpFixture } from "../../fixtures/servers/http-server.ts";
import type { FramedLine } from "../../lib/mcp/transports/wire/framing.ts";
import { HttpTransport } from "../../lib/mcp/transports/http.ts";
import type { Transport } from "../../lib/mcp/transports/transport.ts";

const fixtures: HttpFixture[] = [];
const transports: Transport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  for (const f of fixtures.splice(0)) f.stop();
});

function fixture(...flags: string[]): HttpFixture {
  const f = startHttpFixture(flags);
  fixtures.push(f);
  return f;
}

/** A transport plus a reader that finds messages by id as they arrive. */
function open(url: string, opts: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}) {
  const notes: string[] = [];
  const transport = new HttpTransport({ url, log: (l) => notes.push(l), ...opts });
  transports.push(transport);
  const received: any[] = [];
  const waiters: { pred: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  void (async () => {
    for await (const line of transport.messages as AsyncIterable<FramedLine>) {
      const m = JSON.parse(String(line));
      received.push(m);
      for (const w of waiters.splice(0)) w.pred(m) ? w.resolve(m) : waiters.push(w);
    }
  })();
  const waitFor = (pred: (m: any) => boolean): Promise<any> => {
    const hit = received.find(pred);
    return hit ? Promise.resolve(hit) : new Promise((resolve) => waiters.push({ pred, resolve }));
  };
  let nextId = 1;
  const request = async (method: string, params?: unknown) => {
    const id = nextId++;
    const answer = waitFor((m) => m.id === id && m.method === undefined);
    await transport.send(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }));
    return answer;
  };
  const handshake = async () => {
    const init = await request("initialize", { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "t", version: "0" } });
    transport.setProtocolVersion?.(init.result.protocolVersion);
    await transport.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return init;
  };
  return { transport, received, waitFor, request, handshake, notes };
}

const posts = (f: HttpFixture) => f.requests.filter((r) => r.method === "POST");

describe("Streamable HTTP", () => {
  for (const mode of ["json", "sse"]) {
    test(`${mode} replies: handshake, session id and protocol version on every later request, tools/call`, async () => {
      const f = fixture(...(mode === "sse" ? ["--sse"] : []));
      const c = open(f.url);
      const init = await c.handshake();
      expect(init.result.serverInfo.name).toBe("fixture-http");
      const echo = await c.request("tools/call", { name: "echo", arguments: { text: "hi" } });
      expect(echo.result.content[0].text).toBe("hi");
      const [first, ...rest] = posts(f);
      expect(first!.headers.accept).toBe("application/json, text/event-stream");
      expect(first!.headers["content-type"]).toBe("application/json");
      expect(first!.headers["mcp-session-id"]).toBeUndefined();
      expect(first!.headers["mcp-protocol-version"]).toBeUndefined();
      const session = [...f.sessions.keys()][0];
      for (const r of rest) {
        expect(r.headers["mcp-session-id"]).toBe(session);
        expect(r.headers["mcp-protocol-version"]).toBe("2025-11-25");
      }
    });
  }

  test("server requests inside a POST's stream are answered by a new POST before the response", async () => {
    const f = fixture("--sse", "--server-requests");
    const c = open(f.url);
    await c.handshake();
    // Answer the fixture's ping as the session layer would.
    void c.waitFor((m) => m.method === "ping").then((ping) => c.transport.send(JSON.stringify({ jsonrpc: "2.0", id: ping.id, result: {} })));
    const echo = await c.request("tools/call", { name: "echo", arguments: { text: "after ping" } });
    expect(echo.result.content[0].text).toBe("after ping");
    const pong = posts(f).findIndex((r) => r.body.includes('"fixture-1"'));
    const call = posts(f).findIndex((r) => r.body.includes('"tools/call"'));
    expect(pong).toBeGreaterThan(call);
    expect(c.received.some((m) => m.method === "notifications/message")).toBe(true);
  });

  test("a dropped reply stream is resumed by GET with Last-Event-ID after the retry delay", async () => {
    const f = fixture("--sse", "--drop-stream", "--retry", "300");
    const c = open(f.url);
    await c.handshake();
    const started = Date.now();
    const echo = await c.request("tools/call", { name: "echo", arguments: { text: "resumed" } });
    expect(echo.result.content[0].text).toBe("resumed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const resume = f.requests.find((r) => r.method === "GET" && r.headers["last-event-id"]);
    expect(resume?.headers["last-event-id"]).toMatch(/^s\d+:0$/);
  });

  test("multi-line data and events split byte by byte", async () => {
    const f = fixture("--sse", "--multiline-data", "--split-bytes");
    const c = open(f.url);
    await c.handshake();
    const echo = await c.request("tools/call", { name: "echo", arguments: { text: "é😀 split" } });
    expect(echo.result.content[0].text).toBe("é😀 split");
  });

  test("session expiry (404): a new initialize without the old id, then the request once more", async () => {
    const f = fixture("--expire-after", "2");
    const c = open(f.url);
    await c.handshake();
    await c.request("tools/list");
    const echo = await c.request("tools/call", { name: "echo", arguments: { text: "new session" } });
    expect(echo.result.content[0].text).toBe("new session");
    const inits = posts(f).filter((r) => r.body.includes('"initialize"'));
    expect(inits).toHaveLength(2);
    expect(inits[1]!.headers["mcp-session-id"]).toBeUndefined();
    expect(f.sessions.size).toBe(1);
    expect(c.notes.some((n) => n.includes("expired"))).toBe(true);
  });

  test("no GET stream (405) is normal; 202 and an empty 200 are accepted", async () => {
    for (const flags of [["--no-get-stream"], ["--empty-200", "--get-not-sse"]]) {
      const f = fixture(...flags);
      const c = open(f.url);
      await c.handshake();
      expect((await c.request("ping")).result).toEqual({});
      await c.transport.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } }));
    }
  });

  test("5xx: one line with the status and a bounded body excerpt", async () => {
    const f = fixture("--status", "502");
    const c = open(f.url);
    const error = await c.request("initialize", {}).catch((e: Error) => e);
    expect(String(error)).toMatch(/HTTP 502 Bad Gateway from http:\/\/127\.0\.0\.1:\d+\/mcp \(body: upstream exploded: .{100,}…\)/);
    expect(String(error).length).toBeLessThan(500);
  });

  test("a garbage body to a request is an error naming it, not a hang", async () => {
    const f = fixture("--garbage");
    const error = await open(f.url)
      .request("initialize", {})
      .catch((e: Error) => e);
    expect(String(error)).toContain("is not JSON-RPC");
  });

  test("ECONNREFUSED is one line naming the origin", async () => {
    const f = fixture();
    const url = f.url;
    f.stop();
    const error = await open(url)
      .request("initialize", {})
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  for (const status of ["307", "308"]) {
    test(`a ${status} redirect keeps method and body; to another origin it drops Authorization and Mcp-Session-Id`, async () => {
      const same = fixture("--redirect", status);
      const c = open(same.url, { headers: { Authorization: "Bearer s3cret" } });
      await c.handshake();
      expect((await c.request("ping")).result).toEqual({});
      const moved = same.requests.filter((r) => r.path === "/moved/mcp" && r.method === "POST");
      expect(moved.length).toBeGreaterThan(1);
      expect(moved.every((r) => r.headers.authorization === "Bearer s3cret")).toBe(true);

      // The other origin never sees the session, so everything after initialize is refused there.
      const cross = fixture("--redirect", status, "--redirect-cross-origin");
      const d = open(cross.url, { headers: { Authorization: "Bearer s3cret" } });
      await d.handshake().catch(() => {});
      expect(String(await d.request("ping").catch((e) => e))).toContain("HTTP 400");
      const away = cross.requests.filter((r) => r.origin === "secondary");
      expect(away.length).toBeGreaterThan(1);
      expect(away.some((r) => r.body.includes('"initialize"'))).toBe(true);
      for (const r of away) {
        expect(r.headers.authorization).toBeUndefined();
        expect(r.headers["mcp-session-id"]).toBeUndefined();
      }
    });
  }

  test("a 401 without credentials says the server needs authorization; a static bearer header passes", async () => {
    const f = fixture("--bearer", "tok");
    const error = await open(f.url)
      .request("initialize", {})
      .catch((e: Error) => e);
    expect(String(error)).toContain("HTTP 401 Unauthorized");
    expect(String(error)).toContain("needs authorization");
    const ok = open(f.url, { headers: { Authorization: "Bearer tok" } });
    expect((await ok.handshake()).result.protocolVersion).toBe("2025-11-25");
  });

  test("an auth provider gives each request its header, and a challenge it answers is retried once", async () => {
    let token = "old";
    const challenges: string[] = [];
    const f = startHttpFixture([], {
      authorize: (req) =>
        req.headers.get("authorization") === "Bearer new" ? undefined : new Response("no", { status: 401, headers: { "www-authenticate": "Bearer" } }),
    });
    fixtures.push(f);
    const c = open(f.url, {
      auth: {
        headers: async () => ({ Authorization: `Bearer ${token}` }),
        onChallenge: async (res, req) => {
          challenges.push(`${res.status} ${req.method}`);
          token = "new";
          return true;
        },
      },
    });
    await c.handshake();
    expect(challenges).toEqual(["401 POST"]);
    expect((await c.request("ping")).result).toEqual({});
  });

  test("shutdown DELETEs the session; a server that never answers DELETE holds it for at most a moment", async () => {
    const f = fixture();
    const c = open(f.url);
    await c.handshake();
    const session = [...f.sessions.keys()][0];
    await c.transport.close();
    const del = f.requests.find((r) => r.method === "DELETE");
    expect(del?.headers["mcp-session-id"]).toBe(session!);
    expect(f.sessions.size).toBe(0);

    const slow = fixture("--slow-delete");
    const s = open(slow.url);
    await s.handshake();
    // This server never answers DELETE: close() resolving at all shows shutdown does not wait on it.
    await s.transport.close();
    expect(slow.requests.some((r) => r.method === "DELETE")).toBe(true);
  });
});

describe("legacy HTTP+SSE", () => {
  test("type http falls back on 405 to the legacy transport at the same URL", async () => {
    const f = fixture("--legacy", "405");
    const c = open(f.url);
    await c.handshake();
    const echo = await c.request("tools/call", { name: "echo", arguments: { text: "legacy" } });
    expect(echo.result.content[0].text).toBe("legacy");
    expect(f.requests.some((r) => r.path.startsWith("/messages?sessionId="))).toBe(true);
  });

  test("when the fallback fails too, the error names both attempts", async () => {
    const f = fixture("--status", "404");
    const error = await open(f.url)
      .request("initialize", {})
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/Streamable HTTP: HTTP 404 Not Found from .*; legacy HTTP\+SSE: .*/);
  });
});
