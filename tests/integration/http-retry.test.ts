/**
 * When an HTTP request to an MCP server is sent again (HttpClient over real sockets): only when it
 * cannot have reached the server (connection refused), with backoff; never after a status or a
 * response lost on the way, since a tools/call may not be safe to run twice.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { HttpClient } from "../../lib/mcp/transports/http-client.ts";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const post = { method: "POST" as const, headers: { "Content-Type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' };

/** A port nothing listens on right now (taken from port 0, then released). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response("") });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

describe("HTTP requests sent again", () => {
  test("refused at first, listening a moment later: the request goes through, once", async () => {
    const port = freePort();
    let received = 0;
    const later = setTimeout(() => {
      const server = Bun.serve({ port, fetch: () => (received++, new Response("{}", { headers: { "Content-Type": "application/json" } })) });
      closers.push(() => server.stop(true));
    }, 50);
    closers.push(() => clearTimeout(later));
    const response = await new HttpClient().fetch(`http://127.0.0.1:${port}/mcp`, post);
    expect(response.status).toBe(200);
    expect(received).toBe(1);
  });

  test("refused for good: one line after the last attempt", async () => {
    const port = freePort();
    await expect(new HttpClient().fetch(`http://127.0.0.1:${port}/mcp`, post)).rejects.toThrow(`cannot connect to http://127.0.0.1:${port}: ECONNREFUSED`);
  });

  test("a 5xx is the answer: never sent twice", async () => {
    let received = 0;
    const server = Bun.serve({ port: 0, fetch: () => (received++, new Response("boom", { status: 502 })) });
    closers.push(() => server.stop(true));
    const response = await new HttpClient().fetch(`http://127.0.0.1:${server.port}/mcp`, post);
    expect(response.status).toBe(502);
    expect(received).toBe(1);
  });

  test("a response lost on the way (the connection dropped after the request arrived): never sent twice", async () => {
    let received = 0;
    const server: Server = createServer((socket) => {
      socket.once("data", () => {
        received++;
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => server.close());
    const port = (server.address() as { port: number }).port;
    await expect(new HttpClient().fetch(`http://127.0.0.1:${port}/mcp`, post)).rejects.toThrow();
    expect(received).toBe(1);
  });
});
