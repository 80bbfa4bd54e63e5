/**
 * The Streamable HTTP transport (MCP 2025-11-25, basic/transports#streamable-http): every message
 * POSTed to one URL with `Accept: application/json, text/event-stream`; a request's reply is one
 * JSON body or an SSE stream (server requests and notifications may come first, and are answered
 * by new POSTs); `Mcp-Session-Id` from the initialize reply on every later request, with
 * `MCP-Protocol-Version`; a 404 on a session re-initializes once; a reply stream that ends early is
 * resumed with GET `Last-Event-ID` after the server's `retry:`; the optional GET stream
 * (get-stream.ts) carries server-initiated messages; DELETE ends the session at shutdown.
 */
import type { SseParser as Parser } from "./wire/sse.ts";
import { SseParser } from "./wire/sse.ts";
import type { Transport, TransportClosed, TransportDiagnostics } from "./transport.ts";
import { describeHttpError, discard, displayUrl, HttpClient, type HttpClientOptions } from "./http-client.ts";
import { Inbox } from "./inbox.ts";
import { classify, type Outgoing } from "./outgoing.ts";
import { continueParser, DEFAULT_RETRY_MS, readReplyStream } from "./sse-reply.ts";
import { followGetStream } from "./get-stream.ts";
import { settlesWithin } from "../../shared/async.ts";
import { errorMessage } from "../../shared/values.ts";
import { sleep } from "../../shared/async.ts";

export interface StreamableHttpOptions extends HttpClientOptions {
  url: string;
  /** Notes for --verbose: skipped events, the GET stream's fate, resumptions. */
  log?: (line: string) => void;
  /** Notes for --debug only: skipped priming events. */
  debugLog?: (line: string) => void;
  /** Shared with the legacy fallback, so the session layer keeps one message stream. */
  inbox?: Inbox;
}

/** The first POST (initialize) got 400, 404 or 405: the server may speak the 2024-11-05 HTTP+SSE transport. */
export class LegacyFallbackHint extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "LegacyFallbackHint";
  }
}

/** Resumptions of one reply stream before its request fails. */
const MAX_RESUMES = 5;
/** Longest a request waits for the GET stream's answer after initialized (ms); short, since a server holding its headers (Bun.serve) costs every start-up all of it. */
const GET_OPEN_WAIT_MS = 250;
/** Longest shutdown waits on DELETE (ms). */
const DELETE_WAIT_MS = 1000;
const ACCEPT_BOTH = "application/json, text/event-stream";
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
/** Error codes a 2026-07-28 server answers a 2025 `initialize` with: header mismatch, capability, version, unknown method, missing `_meta`. */
const MODERN_REFUSALS = new Set([-32020, -32021, -32022, -32600, -32601, -32602]);

export class StreamableHttpTransport implements Transport {
  readonly messages: Inbox;
  readonly closed: Promise<TransportClosed>;
  private readonly http: HttpClient;
  private readonly url: string;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private initializeFrame: string | undefined;
  private lastStatus: number | undefined;
  private reinit: Promise<void> | undefined;
  private readonly stop = new AbortController();
  private resolveClosed!: (closed: TransportClosed) => void;
  private closing: Promise<void> | undefined;
  private getStream: Promise<void> | undefined;
  /** Settles once `notifications/initialized` was accepted and the GET stream answered. */
  private ready: Promise<void> | undefined;
  /** Settles once the GET stream's request has been answered (or failed): requests wait for it, briefly. */
  private getOpened: Promise<void> | undefined;
  private markGetOpened: (() => void) | undefined;

  constructor(private readonly opts: StreamableHttpOptions) {
    this.url = opts.url;
    this.http = new HttpClient(opts);
    this.messages = opts.inbox ?? new Inbox();
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /**
   * POSTs one message. For a request, resolves once its response has been delivered to `messages`
   * (or the reply said none will come on it: 202); otherwise once the server accepted it.
   * @throws Error with a one-line reason (HTTP status and body excerpt, connection failure, a reply
   *   stream that could not be resumed); LegacyFallbackHint for 400/404/405 to initialize.
   */
  async send(message: string): Promise<void> {
    const out = classify(message);
    if (out.kind === "request" && out.method === "initialize") this.initializeFrame = message;
    if (out.kind === "notification" && out.method === "notifications/initialized") {
      this.ready ??= this.initialized(message);
      return this.ready;
    }
    // Separate POSTs can overtake each other: no request before the server has `initialized`.
    if (out.kind === "request" && this.ready) await this.ready.catch(() => {});
    await this.post(message, out, true);
  }

  /** POSTs `notifications/initialized`, then opens the GET stream and waits (briefly) for its answer, so server-initiated messages have their stream before any request can cause one. */
  private async initialized(message: string): Promise<void> {
    await this.post(message, { kind: "notification", method: "notifications/initialized" }, true);
    this.getStream ??= this.runGetStream();
    if (this.getOpened) await settlesWithin(this.getOpened, GET_OPEN_WAIT_MS);
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  diagnostics(): TransportDiagnostics {
    return { endpoint: displayUrl(this.url), ...(this.lastStatus === undefined ? {} : { httpStatus: this.lastStatus }) };
  }

  /** Aborts every stream and request, then DELETEs the session (405 is fine), waiting at most 1 s for it. Never throws. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stop.abort();
      if (this.sessionId) await this.deleteSession(this.sessionId);
      this.messages.end();
      this.resolveClosed({ reason: "was shut down", byUs: true });
    })();
    return this.closing;
  }

  private headers(initialize: boolean): Record<string, string> {
    const h: Record<string, string> = { "Content-Type": "application/json", Accept: ACCEPT_BOTH };
    if (this.sessionId && !initialize) h["Mcp-Session-Id"] = this.sessionId;
    if (this.protocolVersion && !initialize) h["MCP-Protocol-Version"] = this.protocolVersion;
    return h;
  }

  private async post(message: string, out: Outgoing, mayReinit: boolean): Promise<void> {
    const initialize = out.kind === "request" && out.method === "initialize";
    // While a new session starts there is no id to send: wait for it (its own POSTs pass mayReinit false).
    if (this.reinit && mayReinit) await this.reinit.catch(() => {});
    const usedSession = this.sessionId;
    const response = await this.http.fetch(this.url, { method: "POST", headers: this.headers(initialize), body: message, signal: this.stop.signal });
    this.lastStatus = response.status;
    if (response.status === 404 && usedSession && !initialize) {
      await discard(response);
      if (!mayReinit) throw new Error(`HTTP 404 from ${displayUrl(this.url)} again after a new session`);
      await this.renewSession(usedSession);
      return this.post(message, out, false);
    }
    if (initialize && response.status >= 400 && response.status < 500) return this.refusedInitialize(response, out);
    if (!response.ok) throw new Error(await describeHttpError(response, displayUrl(this.url)));
    if (initialize) this.takeSessionId(response);
    if (out.kind !== "request") return discard(response); // 202 Accepted, or a body we tolerate and ignore
    await this.readReply(response, out);
  }

  /**
   * A 4xx to initialize. A recognized modern JSON-RPC error body (a 2026-07-28 server's -32022,
   * whatever the status) is the answer, for the session layer to negotiate on; otherwise 400, 404
   * or 405 hint at the legacy HTTP+SSE transport (MCP 2026-07-28, streamable-http §Backward
   * Compatibility), and another status with a JSON-RPC error body is the answer too.
   */
  private async refusedInitialize(response: Response, out: Extract<Outgoing, { kind: "request" }>): Promise<void> {
    const text = await response.text().catch(() => "");
    const { parseReply } = await import("./rev2026-07-28/http.ts");
    const reply = parseReply(text, out.id);
    const fallback = [400, 404, 405].includes(response.status);
    if (reply && (!fallback || MODERN_REFUSALS.has((JSON.parse(reply) as { error?: { code?: number } }).error?.code ?? 0))) return this.messages.push(reply);
    const described = await describeHttpError(new Response(text, { status: response.status, statusText: response.statusText }), displayUrl(this.url));
    if (fallback) throw new LegacyFallbackHint(described);
    throw new Error(described);
  }

  /** The reply to a POSTed request: one JSON body, an SSE stream (resumed if it ends early), or nothing (202). */
  private async readReply(response: Response, out: Extract<Outgoing, { kind: "request" }>, deliver = (m: string) => this.messages.push(m)): Promise<void> {
    const type = response.headers.get("content-type") ?? "";
    if (/^text\/event-stream/i.test(type) && response.body) return this.readStream(response.body, out, deliver);
    const text = await response.text();
    if (text.trim() === "") return; // 202, 204 or an empty 200: the response will come some other way, if at all
    if (!/^\s*[[{]/.test(text)) {
      const excerpt = text.replace(/\s+/g, " ").slice(0, 200);
      throw new Error(`HTTP ${response.status} from ${displayUrl(this.url)} is not JSON-RPC (Content-Type: ${type || "none"}; body: ${excerpt})`);
    }
    deliver(text);
  }

  private async readStream(body: ReadableStream<Uint8Array>, out: Extract<Outgoing, { kind: "request" }>, deliver: (m: string) => void): Promise<void> {
    let parser: Parser = new SseParser();
    for (let resumes = 0; ; resumes++) {
      let answered = false;
      try {
        answered = await readReplyStream(body, parser, {
          deliver,
          note: this.opts.log,
          debugNote: this.opts.debugLog,
          requestId: out.id,
          signal: this.stop.signal,
        });
      } catch (error) {
        this.opts.log?.(`the reply stream of ${out.method} broke: ${errorMessage(error)}`);
      }
      if (answered || this.stop.signal.aborted) return;
      if (parser.lastEventId === "") throw new Error(`the reply stream of ${out.method} ended before its response, with no event id to resume from`);
      if (resumes >= MAX_RESUMES) throw new Error(`the reply stream of ${out.method} ended ${resumes + 1} times before its response`);
      await sleep(parser.retryMs ?? DEFAULT_RETRY_MS, this.stop.signal);
      this.opts.log?.(`resuming the reply stream of ${out.method} after event ${JSON.stringify(parser.lastEventId)}`);
      const response = await this.http.fetch(this.url, { method: "GET", headers: this.streamHeaders(parser.lastEventId), signal: this.stop.signal });
      this.lastStatus = response.status;
      if (!response.ok || !/^text\/event-stream/i.test(response.headers.get("content-type") ?? "") || !response.body) {
        throw new Error(`cannot resume the reply stream of ${out.method}: ${await describeHttpError(response, displayUrl(this.url))}`);
      }
      body = response.body;
      parser = continueParser(parser);
    }
  }

  private streamHeaders(lastEventId?: string): Record<string, string> {
    const h: Record<string, string> = { Accept: "text/event-stream" };
    if (this.sessionId) h["Mcp-Session-Id"] = this.sessionId;
    if (this.protocolVersion) h["MCP-Protocol-Version"] = this.protocolVersion;
    if (lastEventId) h["Last-Event-ID"] = lastEventId;
    return h;
  }

  private takeSessionId(response: Response): void {
    const id = response.headers.get("mcp-session-id");
    if (id === null) return;
    if (!VISIBLE_ASCII.test(id)) throw new Error("the server sent an Mcp-Session-Id that is not visible ASCII (refused)");
    this.sessionId = id;
  }

  /** Session expired (404): one new initialize, without the old id, shared by every request that saw it. */
  private renewSession(expired: string): Promise<void> {
    if (this.reinit) return this.reinit; // another request that saw the 404 is renewing it
    if (this.sessionId !== expired) return Promise.resolve(); // another request already renewed it
    this.reinit = (async () => {
      this.opts.log?.("the session expired (HTTP 404); starting a new one");
      this.sessionId = undefined;
      const frame = this.initializeFrame;
      if (!frame) throw new Error("session expired before initialize");
      const init = classify(frame) as Extract<Outgoing, { kind: "request" }>;
      const response = await this.http.fetch(this.url, { method: "POST", headers: this.headers(true), body: frame, signal: this.stop.signal });
      this.lastStatus = response.status;
      if (!response.ok) throw new Error(`a new session was refused: ${await describeHttpError(response, displayUrl(this.url))}`);
      this.takeSessionId(response);
      await this.readReply(response, init, () => {}); // The session layer has had its initialize answer.
      await this.post(
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        { kind: "notification", method: "notifications/initialized" },
        false,
      );
      this.getStream = this.runGetStream();
    })().finally(() => (this.reinit = undefined));
    return this.reinit;
  }

  /** The optional GET stream (get-stream.ts); `getOpened` settles once its request was answered or failed. */
  private async runGetStream(): Promise<void> {
    this.getOpened = new Promise((resolve) => (this.markGetOpened = resolve));
    try {
      await followGetStream({
        http: this.http,
        url: this.url,
        signal: this.stop.signal,
        sessionId: () => this.sessionId,
        headers: (lastEventId) => this.streamHeaders(lastEventId),
        deliver: (m) => this.messages.push(m),
        opened: () => this.markGetOpened?.(),
        log: this.opts.log,
        debugLog: this.opts.debugLog,
      });
    } finally {
      this.markGetOpened?.();
    }
  }

  private async deleteSession(sessionId: string): Promise<void> {
    const headers: Record<string, string> = { "Mcp-Session-Id": sessionId };
    if (this.protocolVersion) headers["MCP-Protocol-Version"] = this.protocolVersion;
    try {
      const response = await this.http.fetch(this.url, { method: "DELETE", headers, signal: AbortSignal.timeout(DELETE_WAIT_MS) });
      await discard(response);
    } catch {
      // 405, a timeout or a server already gone: the session ends with us either way.
    }
  }
}
