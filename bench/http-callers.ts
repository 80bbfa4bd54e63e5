/**
 * The three ways the Streamable HTTP figures reach a server (MCP 2025-11-25, basic/transports):
 * our McpClient on our HttpTransport, the official SDK client's StreamableHTTPClientTransport
 * (a bench-only devDependency), and a raw session that POSTs by hand and reads each reply's bytes
 * without decoding or parsing them: the floor that the server and the transfer set for any client.
 * Plus the servers' set-up: our HTTP fixture in a process of its own, and a 10 MB blob the
 * everything server makes into a session resource.
 */
import { join } from "node:path";

/** The everything server's session resource for `name` (its gzip-file-as-resource tool). */
export const sessionResource = (name: string) => `demo://resource/session/${name}`;

export interface Caller {
  echo(message: string): Promise<string>;
  /** The fixture's `big` tool: the text of its one content block. */
  big(bytes: number): Promise<string>;
  /** Any tool; resolves with the result. */
  call(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** `resources/read`; resolves with the length of the first content's `blob` (or `text`). */
  read(uri: string): Promise<number>;
  close(): Promise<void>;
}

const TIMEOUT_MS = 120_000;
const firstText = (content: unknown) => String((content as { text?: string }[] | undefined)?.[0]?.text ?? "");
const firstLength = (contents: unknown) => {
  const first = (contents as { blob?: string; text?: string }[] | undefined)?.[0];
  return (first?.blob ?? first?.text ?? "").length;
};

export async function ours(url: string): Promise<Caller> {
  const { McpClient } = await import("../lib/mcp/session/client.ts");
  const { HttpTransport } = await import("../lib/mcp/transports/http.ts");
  const client = new McpClient("bench", new HttpTransport({ url }), { features: {} });
  await client.connect({ timeoutMs: 30_000 });
  const call = (name: string, args: Record<string, unknown>) => client.callTool(name, args, { timeoutMs: TIMEOUT_MS });
  return {
    echo: async (message) => firstText((await call("echo", { message })).content),
    big: async (bytes) => firstText((await call("big", { bytes })).content),
    call,
    read: async (uri) => firstLength((await client.readResource(uri, { timeoutMs: TIMEOUT_MS })).contents),
    close: () => client.close(),
  };
}

export async function sdk(url: string): Promise<Caller> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const client = new Client({ name: "bench-sdk", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }, undefined, { timeout: TIMEOUT_MS });
  return {
    echo: async (message) => firstText((await call("echo", { message })).content),
    big: async (bytes) => firstText((await call("big", { bytes })).content),
    call,
    read: async (uri) => firstLength((await client.readResource({ uri }, { timeout: TIMEOUT_MS })).contents),
    close: () => client.close(),
  };
}

/** A session by hand, for the floor: the work of the server and the transfer, and nothing of a client's. */
export interface RawSession {
  /**
   * POSTs one request and resolves with the reply's size in bytes, read and dropped (no decoding,
   * no JSON). A JSON reply is read to its end. An SSE reply is read until `atLeast` bytes have come
   * and a chunk ends an event (a blank line): the moment a client has the whole response, since
   * servers may end the stream a little later; without `atLeast`, to the stream's end.
   */
  request(method: string, params: Record<string, unknown>, atLeast?: number): Promise<number>;
}

const LF = 0x0a;

export async function raw(url: string): Promise<RawSession> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  let id = 0;
  const post = (message: object) => fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
  const capabilities = {};
  const init = await post({
    jsonrpc: "2.0",
    id: id++,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "bench-raw", version: "1.0.0" } },
  });
  if (!init.ok) throw new Error(`raw initialize: HTTP ${init.status}`);
  const session = init.headers.get("mcp-session-id");
  if (session) headers["Mcp-Session-Id"] = session;
  headers["MCP-Protocol-Version"] = "2025-11-25";
  await init.arrayBuffer();
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).arrayBuffer();
  return {
    request: async (method, params, atLeast) => {
      const response = await post({ jsonrpc: "2.0", id: id++, method, params });
      if (!response.ok || !response.body) throw new Error(`raw ${method}: HTTP ${response.status}`);
      const sse = /^text\/event-stream/i.test(response.headers.get("content-type") ?? "");
      const reader = response.body.getReader();
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return bytes;
        bytes += value.length;
        if (sse && atLeast !== undefined && bytes >= atLeast && value.at(-1) === LF && value.at(-2) === LF) break;
      }
      void reader.cancel().catch(() => {}); // after the clock stopped: the response is complete
      return bytes;
    },
  };
}

/** Our HTTP fixture server in a process of its own (`--sse`: SSE replies, else JSON); resolves with its /mcp URL. */
export async function startFixture(sse: boolean): Promise<{ url: string; stop: () => void }> {
  const script = join(import.meta.dir, "../fixtures/servers/http-server.ts");
  const proc = Bun.spawn([process.execPath, script, ...(sse ? ["--sse"] : [])], { stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the HTTP fixture server exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { url: text.trim(), stop: () => proc.kill() };
}

/**
 * Serves `bytes` pseudo-random (incompressible) bytes on 127.0.0.1 for the everything server's
 * gzip-file-as-resource tool to fetch: gzip cannot shrink them, so the resource's base64 blob is
 * about 4/3 of `bytes` long.
 */
export function serveNoise(bytes: number): { url: string; stop: () => void } {
  const noise = new Uint8Array(bytes);
  let x = 2463534242; // xorshift32: the same bytes every run
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    noise[i] = x & 0xff;
  }
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(noise) });
  return { url: `http://127.0.0.1:${server.port}/noise.bin`, stop: () => void server.stop(true) };
}

/** Has the everything server make a session resource `name` of the bytes at `source`; resolves with its URI. */
export async function makeResource(caller: Caller, name: string, source: string): Promise<string> {
  await caller.call("gzip-file-as-resource", { name, data: source, outputType: "resourceLink" });
  return sessionResource(name);
}
