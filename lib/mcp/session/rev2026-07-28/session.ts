/**
 * Requests in the MCP 2026-07-28 era (basic/index §_meta, basic/versioning, basic/patterns/mrtr,
 * server/utilities/caching): each carries the `_meta` envelope; a -32022 is retried once in a
 * revision from `data.supported`; an `input_required` result (SEP-2322) is answered by our own
 * elicitation, sampling and roots handlers (the same consent rules as a 2025 server request) and
 * the request re-sent with `inputResponses` and its `requestState` unchanged, under a new id, at
 * most `MAX_INPUT_ROUNDS` times; a request whose reply stream broke is re-sent only when it is
 * safe to repeat; list results are kept for their `ttlMs` until a list_changed.
 */
import { ConnectionClosedError, McpError } from "../../protocol/errors.ts";
import { type ClientFeatures, serveRequest } from "../features.ts";
import type { JsonRpcConnection, RequestOptions } from "../jsonrpc.ts";
import { type ClientCapabilities, ErrorCode, type ListKind, MODERN_PROTOCOL_VERSIONS } from "../../protocol/protocol.ts";
import { withEnvelope } from "../envelope.ts";
import { clientDeclaresTasks } from "../../protocol/tasks-extension.ts";
import { isObject } from "../../../shared/values.ts";

/** Rounds of `input_required` one request may take before it fails (SEP-2322: cap rounds). */
export const MAX_INPUT_ROUNDS = 10;
/** Re-sends of a safe request whose reply stream broke. */
const MAX_STREAM_RETRIES = 2;
/** Methods that may answer `input_required` (basic/patterns/mrtr). */
const INPUT_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);
/** Requests safe to repeat after a broken stream: reads, lists, discovery. A tools/call is never sent twice. */
const SAFE_METHODS = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/get",
  "completion/complete",
]);
/** Results that carry `ttlMs`/`cacheScope` and are kept while fresh (server/utilities/caching). */
const CACHED_METHODS = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list"]);
/** The server-to-client requests an `inputRequests` entry may carry. */
const INPUT_REQUEST_METHODS = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

export interface ModernSessionOptions {
  conn: JsonRpcConnection;
  features: ClientFeatures;
  capabilities: ClientCapabilities;
  version: string;
  /** The server's name, for handlers (consent prompts name it). */
  server: string;
  peer: string;
  /** `io.modelcontextprotocol/logLevel` on every request, when server log messages are wanted. */
  logLevel?: string;
  /** Lists the tools again (their `x-mcp-header` annotations), after a -32020 HeaderMismatch to a `tools/call`. */
  relistTools?: () => Promise<void>;
}

export class ModernSession {
  version: string;
  private readonly cache = new Map<string, { result: unknown; expires: number }>();

  constructor(private readonly opts: ModernSessionOptions) {
    this.version = opts.version;
  }

  /**
   * One request to completion: envelope, -32022 retry, broken-stream retry (safe methods), MRTR rounds.
   * @throws McpError, RequestTimeoutError, RequestCancelledError, ConnectionClosedError, or Error
   *   naming a result this client cannot take (an unknown `resultType`, too many rounds).
   */
  async request<T>(method: string, params: Record<string, unknown> | undefined, opts: RequestOptions = {}): Promise<T> {
    const key = CACHED_METHODS.has(method) ? `${method} ${JSON.stringify(params ?? {})}` : undefined;
    const cached = key ? this.cache.get(key) : undefined;
    if (cached && cached.expires > Date.now()) return cached.result as T;
    let extra: Record<string, unknown> = {};
    for (let round = 0; ; round++) {
      const result = await this.once(method, { ...params, ...extra }, opts);
      const type = isObject(result) && result.resultType !== undefined ? result.resultType : "complete";
      // SEP-2663: a CreateTaskResult to a tools/call we declared the extension on, followed by the caller (tasks/rev2026-07-28/follow.ts); the SEP's own examples also tag tasks/get so.
      if (type === "task" && (method === "tools/call" || method === "tasks/get") && clientDeclaresTasks(this.opts.capabilities)) return result as T;
      if (type === "complete") {
        if (key) this.keep(key, result);
        return result as T;
      }
      if (type !== "input_required")
        throw new Error(`${this.opts.peer}: ${method} answered with resultType ${JSON.stringify(type)}, which this client does not support`);
      if (!INPUT_METHODS.has(method))
        throw new Error(`${this.opts.peer}: ${method} answered input_required, which only tools/call, prompts/get and resources/read may`);
      if (round + 1 >= MAX_INPUT_ROUNDS) throw new Error(`${this.opts.peer}: ${method} still asked for input after ${MAX_INPUT_ROUNDS} rounds`);
      const asked = result as { inputRequests?: unknown; requestState?: unknown };
      const inputResponses = await this.fulfil(method, asked.inputRequests, opts.signal);
      // Only this request's retry carries them; requestState goes back exactly as it came, or not at all.
      extra = { ...(inputResponses ? { inputResponses } : {}), ...(typeof asked.requestState === "string" ? { requestState: asked.requestState } : {}) };
    }
  }

  /** A `notifications/<kind>/list_changed` arrived: that kind's cached pages are stale. */
  invalidate(kind: ListKind): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${kind}/`)) this.cache.delete(key);
  }

  private async once(method: string, params: Record<string, unknown>, opts: RequestOptions): Promise<unknown> {
    for (let attempt = 0, versionRetried = false, headersRetried = false; ; attempt++) {
      const sent = withEnvelope(params, { protocolVersion: this.version, capabilities: this.opts.capabilities, logLevel: this.opts.logLevel });
      try {
        return await this.opts.conn.request(method, sent, opts);
      } catch (error) {
        const next = error instanceof McpError && !versionRetried ? retryVersion(error) : undefined;
        if (next) {
          versionRetried = true;
          this.version = next;
          continue;
        }
        if (brokenStream(error) && SAFE_METHODS.has(method) && attempt < MAX_STREAM_RETRIES) continue;
        // The server refused the headers before running anything: list the tools' annotations again, retry once.
        if (error instanceof McpError && error.code === ErrorCode.HeaderMismatch && method === "tools/call" && !headersRetried && this.opts.relistTools) {
          headersRetried = true;
          this.invalidate("tools");
          await this.opts.relistTools();
          continue;
        }
        throw error;
      }
    }
  }

  /** Answers every `inputRequests` entry with our handlers, one after another (one prompt at a time); also a task's (SEP-2663). */
  async fulfil(method: string, requests: unknown, signal: AbortSignal | undefined): Promise<Record<string, unknown> | undefined> {
    if (!isObject(requests)) return undefined;
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const inner = isObject(request) ? request : {};
      const what = typeof inner.method === "string" ? inner.method : "";
      if (!INPUT_REQUEST_METHODS.has(what))
        throw new Error(`${this.opts.peer}: ${method} asked for input by ${JSON.stringify(what)}, which is not an input request`);
      const ctx = { server: this.opts.server, signal: signal ?? new AbortController().signal };
      try {
        responses[key] = await serveRequest(this.opts.features, what, inner.params, ctx);
      } catch (error) {
        throw new Error(
          `${this.opts.peer}: ${method} asked for ${what}, which this client cannot give: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return responses;
  }

  private keep(key: string, result: unknown): void {
    const ttl = isObject(result) && typeof result.ttlMs === "number" && result.ttlMs > 0 ? result.ttlMs : 0;
    if (ttl > 0) this.cache.set(key, { result, expires: Date.now() + ttl });
  }
}

/** The revision to retry a -32022 in: one from `data.supported` that we speak. */
function retryVersion(error: McpError): string | undefined {
  if (error.code !== ErrorCode.UnsupportedProtocolVersion || !isObject(error.data) || !Array.isArray(error.data.supported)) return undefined;
  const supported = error.data.supported as unknown[];
  return MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v));
}

/** The transport lost the request's reply stream (transports/rev2026-07-28/http.ts `ResponseStreamBroken`). */
function brokenStream(error: unknown): boolean {
  return error instanceof ConnectionClosedError && error.cause instanceof Error && error.cause.name === "ResponseStreamBroken";
}
