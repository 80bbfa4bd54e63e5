/**
 * Streamable HTTP as MCP 2026-07-28 has it (basic/transports/streamable-http): no session, no GET
 * stream, no DELETE, no resumption. Every request is its own POST with `MCP-Protocol-Version` (the
 * body's `_meta` version), `Mcp-Method`, `Mcp-Name` and the tool's `Mcp-Param-*` headers; its reply
 * is one JSON body or an SSE stream scoped to it, whatever the status (a 400 carries -32022 or
 * -32020 as a JSON-RPC error). Cancelling a request closes its stream: `notifications/cancelled`
 * never goes on the wire (§Cancellation).
 */
import { SseParser } from "../wire/sse.ts";
import type { Transport, TransportClosed, TransportDiagnostics } from "../transport.ts";
import { describeHttpError, displayUrl, HttpClient, type HttpClientOptions } from "../http-client.ts";
import { Inbox } from "../inbox.ts";
import { encodeHeaderValue, nameOf, type ParamHeader, paramHeaderValues } from "../mcp-headers.ts";
import { classify } from "../outgoing.ts";
import { readReplyStream } from "../sse-reply.ts";
import { isObject } from "../../../shared/values.ts";

export interface ModernHttpOptions extends HttpClientOptions {
  url: string;
  log?: (line: string) => void;
  /** Shared with the 2025 transports of the same URL, so the session layer keeps one message stream. */
  inbox?: Inbox;
}

/** A request's reply stream ended before its response: the request is lost (no resumption in 2026-07-28). */
export class ResponseStreamBroken extends Error {
  constructor(readonly method: string) {
    super(`the reply stream of ${method} ended before its response`);
    this.name = "ResponseStreamBroken";
  }
}

/** A reply that is no JSON-RPC at all (an empty or HTML 4xx): the server does not speak the modern revision. */
export class NotModernReply extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotModernReply";
  }
}

const ACCEPT_BOTH = "application/json, text/event-stream";
const META_VERSION = "io.modelcontextprotocol/protocolVersion";

export class ModernHttpTransport implements Transport {
  readonly messages: Inbox;
  readonly closed: Promise<TransportClosed>;
  private readonly http: HttpClient;
  private readonly stop = new AbortController();
  private readonly inFlight = new Map<string | number, AbortController>();
  private toolHeaders = new Map<string, readonly ParamHeader[]>();
  private lastStatus: number | undefined;
  private resolveClosed!: (closed: TransportClosed) => void;

  constructor(private readonly opts: ModernHttpOptions) {
    this.http = new HttpClient(opts);
    this.messages = opts.inbox ?? new Inbox();
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /** The `x-mcp-header` annotations of each listed tool (by the server's tool name), for `tools/call`. */
  setToolHeaders(headers: Map<string, readonly ParamHeader[]>): void {
    this.toolHeaders = headers;
  }

  /**
   * POSTs one request and resolves once its response is in `messages`; `notifications/cancelled`
   * aborts the POST it names instead of being sent.
   * @throws ResponseStreamBroken, NotModernReply, or an Error naming the HTTP failure.
   */
  async send(message: string): Promise<void> {
    const out = classify(message);
    if (out.kind === "response") return; // 2026-07-28 has no server requests to answer over HTTP
    const frame = JSON.parse(message) as { id?: string | number; method: string; params?: Record<string, unknown> };
    if (out.kind === "notification") {
      if (out.method === "notifications/cancelled") this.inFlight.get(frame.params?.requestId as string | number)?.abort();
      return; // this revision defines no client notification over Streamable HTTP
    }
    const controller = new AbortController();
    this.inFlight.set(out.id, controller);
    try {
      const signal = AbortSignal.any([this.stop.signal, controller.signal]);
      const response = await this.http.fetch(this.opts.url, { method: "POST", headers: this.headers(frame), body: message, signal });
      this.lastStatus = response.status;
      await this.readReply(response, out.id, out.method, signal);
    } catch (error) {
      // A stream we closed ourselves (cancel, shutdown) is no failure: the session layer has moved on.
      if (controller.signal.aborted || this.stop.signal.aborted) return;
      throw error;
    } finally {
      this.inFlight.delete(out.id);
    }
  }

  diagnostics(): TransportDiagnostics {
    return { endpoint: displayUrl(this.opts.url), ...(this.lastStatus === undefined ? {} : { httpStatus: this.lastStatus }) };
  }

  /** Aborts every stream; there is no session to end. Never throws. */
  async close(): Promise<void> {
    this.stop.abort();
    this.messages.end();
    this.resolveClosed({ reason: "was shut down", byUs: true });
  }

  private headers(frame: { method: string; params?: Record<string, unknown> }): Record<string, string> {
    const meta = isObject(frame.params?._meta) ? frame.params._meta : {};
    const h: Record<string, string> = { "Content-Type": "application/json", Accept: ACCEPT_BOTH };
    if (typeof meta[META_VERSION] === "string") h["MCP-Protocol-Version"] = meta[META_VERSION];
    h["Mcp-Method"] = frame.method;
    const name = nameOf(frame.method, frame.params);
    if (name !== undefined) h["Mcp-Name"] = encodeHeaderValue(name);
    if (frame.method === "tools/call" && name !== undefined) {
      const declared = this.toolHeaders.get(name);
      if (declared) Object.assign(h, paramHeaderValues(declared, frame.params?.arguments));
    }
    return h;
  }

  private async readReply(response: Response, id: string | number, method: string, signal: AbortSignal): Promise<void> {
    const type = response.headers.get("content-type") ?? "";
    if (/^text\/event-stream/i.test(type) && response.body) {
      const answered = await readReplyStream(response.body, new SseParser(), {
        deliver: (m) => this.messages.push(m),
        note: this.opts.log,
        requestId: id,
        signal,
      }).catch((error) => {
        // A stream we closed (a cancel, the listen stream at shutdown) did not break.
        if (!signal.aborted) this.opts.log?.(`the reply stream of ${method} broke: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      });
      if (!answered && !signal.aborted) throw new ResponseStreamBroken(method);
      return;
    }
    const text = await response.text();
    const reply = parseReply(text, id);
    if (reply) return this.messages.push(reply);
    const described = await describeHttpError(new Response(text, { status: response.status, statusText: response.statusText }), displayUrl(this.opts.url));
    if (!response.ok) throw new NotModernReply(described);
    throw new Error(`${described}: no JSON-RPC response to ${method}`);
  }
}

/** The body as the response to request `id` (an error with a null id is taken as ours), else undefined. */
export function parseReply(text: string, id: string | number): string | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    const message = JSON.parse(text) as Record<string, unknown>;
    if (message.jsonrpc !== "2.0" || !("result" in message || "error" in message)) return undefined;
    if (message.id === id) return text;
    if (message.id === null || message.id === undefined) return JSON.stringify({ ...message, id });
    return undefined;
  } catch {
    return undefined;
  }
}
