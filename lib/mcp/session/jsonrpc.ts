/**
 * One JSON-RPC 2.0 connection over framed lines (MCP 2025-11-25, basic#messages and
 * basic/utilities: cancellation, progress, ping). Knows ids, the pending requests, timeouts,
 * incoming requests and notifications; knows nothing about processes or MCP features.
 * While the peer's own request is being served, the timeouts of ours stand still (deadline.ts);
 * serving the peer's requests is incoming.ts's.
 */
import { ConnectionClosedError, NestedTooDeepError, RequestCancelledError, RequestTimeoutError, toMcpError } from "../protocol/errors.ts";
import type { FramedLine } from "../transports/wire/framing.ts";
import { isRequestId, type JsonRpcRequest, type ProgressParams, type RequestId } from "../protocol/protocol.ts";
import { Deadlines } from "./deadline.ts";
import { IncomingRequests, type Outcome, type Params, type RequestHandler } from "./incoming.ts";
import { MAX_JSON_DEPTH, mayNestDeeperThan, nestedDeeperThan } from "../protocol/depth.ts";
import { errorMessage, isObject, preview } from "../../shared/values.ts";

export interface RequestOptions {
  /** Reject after this many ms not spent serving the peer's requests, sending `notifications/cancelled`; none when absent. */
  timeoutMs?: number;
  /** Aborting rejects the request and sends `notifications/cancelled`. */
  signal?: AbortSignal;
  /** Asks for progress (a `progressToken` in `_meta`) and receives each `notifications/progress`. */
  onProgress?: (progress: ProgressParams) => void;
  /** False for `initialize`, which MUST NOT be cancelled (basic/utilities/cancellation). */
  cancellable?: boolean;
  /**
   * The peer may end this request with `notifications/cancelled` naming its id: it then resolves
   * with `{resultType: "complete"}` (MCP 2026-07-28 basic/patterns/subscriptions: a stdio server's
   * graceful end of `subscriptions/listen`). Off for every other request.
   */
  peerMayEnd?: boolean;
}

export type { IncomingRequestContext, Params } from "./incoming.ts";

export interface JsonRpcConnectionOptions {
  /** Names the peer in error messages, e.g. `MCP server "db"`. */
  peer: string;
  /**
   * Sends one serialised message (`Transport.send`); the transport adds the framing. May throw or
   * reject for that one message: a request then fails, a notification or response is noted.
   */
  write: (message: string) => void | Promise<void>;
  /**
   * Answers a request from the peer. Throw `McpError` to choose the error code; other errors
   * become -32603. Absent → every request but `ping` gets -32601.
   */
  onRequest?: RequestHandler;
  onNotification?: (method: string, params: Params) => void;
  /**
   * `notifications/progress` for a token no pending request has (a task's, which outlives its
   * `tools/call`: basic/utilities/tasks §Task Progress Notifications). True when it was taken.
   */
  onUnclaimedProgress?: (progress: ProgressParams) => boolean;
  /** Notes about skipped input (non-JSON lines, unknown ids): diagnostics, shown under --verbose. */
  log?: (note: string) => void;
  /** Every message sent and received, for --debug. */
  trace?: (direction: "send" | "receive", message: string) => void;
}

interface Pending {
  cancellable: boolean;
  peerMayEnd?: boolean;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: ProgressParams) => void;
  cleanup: () => void;
}

export class JsonRpcConnection {
  /** Lines read, lines that were not JSON-RPC (the last of them), and responses whose id no request of ours had: a failure can say "garbage". */
  readonly stats = { received: 0, skipped: 0, lastSkipped: "", strayIds: [] as unknown[] };
  /** Resolves with the reason once the connection is closed (by EOF, read error or `close`). */
  readonly closed: Promise<Error>;
  // From 1: a sloppy server testing `if (msg.id)` would take id 0 for a notification.
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly deadlines = new Deadlines();
  private readonly incoming: IncomingRequests;
  private closedError: Error | null = null;
  private resolveClosed!: (reason: Error) => void;

  /** Starts reading `lines` at once; the connection closes when they end. */
  constructor(
    lines: AsyncIterable<FramedLine>,
    private readonly opts: JsonRpcConnectionOptions,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.incoming = new IncomingRequests(opts.onRequest, this.deadlines, (id, outcome) => this.reply(id, outcome));
    void this.pump(lines);
  }

  get isClosed(): boolean {
    return this.closedError !== null;
  }

  /**
   * Sends a request and resolves with its `result`. Rejects with `McpError` (error response),
   * `RequestTimeoutError`, `RequestCancelledError` or `ConnectionClosedError`.
   */
  request<T = unknown>(method: string, params?: Params, opts: RequestOptions = {}): Promise<T> {
    return this.requestFrame<T>((id) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }), opts);
  }

  /** Like `request`, but the caller builds the exact frame for the id it is given. */
  requestFrame<T = unknown>(build: (id: number) => JsonRpcRequest, opts: RequestOptions = {}): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    let frame = build(id);
    const { method } = frame;
    if (opts.signal?.aborted) return Promise.reject(new RequestCancelledError(method, this.opts.peer));
    if (opts.onProgress) {
      const meta = { ...(frame.params?._meta as object | undefined), progressToken: id };
      frame = { ...frame, params: { ...frame.params, _meta: meta } };
    }
    return new Promise<T>((resolve, reject) => {
      let stopClock: (() => void) | undefined;
      const onAbort = () => this.abandon(id, new RequestCancelledError(method, this.opts.peer), "cancelled by the client");
      const cleanup = () => {
        stopClock?.();
        opts.signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(id, {
        cancellable: opts.cancellable ?? true,
        peerMayEnd: opts.peerMayEnd,
        resolve: resolve as (result: unknown) => void,
        reject,
        onProgress: opts.onProgress,
        cleanup,
      });
      if (opts.timeoutMs !== undefined && Number.isFinite(opts.timeoutMs)) {
        const ms = opts.timeoutMs;
        stopClock = this.deadlines.start(ms, () => this.abandon(id, new RequestTimeoutError(method, ms, this.opts.peer), `timed out after ${ms} ms`));
      }
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      const failed = (error: unknown) => {
        if (this.pending.get(id)?.reject !== reject) return; // already settled (closed, timed out)
        this.pending.delete(id);
        cleanup();
        reject(new ConnectionClosedError(`${this.opts.peer}: cannot send ${method}: ${errorMessage(error)}`, false, error));
      };
      this.send(frame, failed);
    });
  }

  /**
   * A clock like a request's timeout: `expire` runs after `ms` not spent serving the peer's own
   * requests (a task followed over several requests uses it). Returns the function that stops it.
   */
  startClock(ms: number, expire: () => void): () => void {
    return this.deadlines.start(ms, expire);
  }

  /** Sends a notification; a failure to write is noted, never thrown (there is no one to tell). */
  notify(method: string, params?: Params): void {
    if (this.closedError) return;
    const failed = (error: unknown) => this.note(`cannot send ${method}: ${errorMessage(error)}`);
    this.send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) }, failed);
  }

  /** Closes: rejects every pending request with `reason` and aborts incoming handlers. Idempotent. */
  close(reason?: Error): void {
    if (this.closedError) return;
    const error = reason ?? new ConnectionClosedError(`${this.opts.peer}: connection closed`);
    this.closedError = error;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) {
      entry.cleanup();
      entry.reject(error);
    }
    this.incoming.abortAll(error);
    this.resolveClosed(error);
  }

  private async pump(lines: AsyncIterable<FramedLine>): Promise<void> {
    try {
      for await (const line of lines) this.receive(line);
      this.close(new ConnectionClosedError(`${this.opts.peer} closed its output`));
    } catch (error) {
      this.close(new ConnectionClosedError(`${this.opts.peer}: reading failed: ${errorMessage(error)}`));
    }
  }

  /** Serialises and writes one message; a throw or a rejected write alike goes to `failed`. */
  private send(message: object, failed: (error: unknown) => void): void {
    try {
      const line = JSON.stringify(message);
      this.opts.trace?.("send", line);
      this.opts.write(line)?.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  /** One line in: parsed once, dispatched, never throws. */
  private receive(line: FramedLine): void {
    if (this.closedError) return;
    this.stats.received++;
    if (typeof line !== "string") {
      // A stray bad byte in an answer must not turn the answer into a timeout: decoded with U+FFFD, it goes on.
      line = new TextDecoder().decode(line);
      this.note(`a line that is not valid UTF-8 was decoded with replacement characters: ${preview(line)}`);
    }
    this.opts.trace?.("receive", line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.skip("line is not JSON", line);
    }
    if (mayNestDeeperThan(line) && nestedDeeperThan(message)) return this.tooDeep(message, line);
    // Batches left the protocol in 2025-06-18, but 2025-03-26 peers may still send them.
    if (Array.isArray(message) && message.length > 0) for (const item of message) this.dispatch(item, line);
    else this.dispatch(message, line);
  }

  private dispatch(message: unknown, line: string): void {
    if (!isObject(message) || message.jsonrpc !== "2.0") return this.skip("not a JSON-RPC 2.0 message", line);
    const { id, method } = message;
    const params = isObject(message.params) ? message.params : undefined;
    if (typeof method === "string") {
      if (isRequestId(id)) return this.incoming.serve(id, method, params);
      if (!("id" in message)) return this.handleNotification(method, params);
      return this.skip("request with an invalid id", line);
    }
    if ("result" in message || "error" in message) return this.handleResponse(message);
    this.skip("neither request, response nor notification", line);
  }

  private handleResponse(message: Record<string, unknown>): void {
    const entry = isRequestId(message.id) ? this.pending.get(message.id) : undefined;
    // Legitimate after a timeout or cancellation (the answer crossed our notification): not garbage.
    if (!entry) {
      if (this.stats.strayIds.length < 3) this.stats.strayIds.push(message.id);
      return this.note(`response to unknown request id ${JSON.stringify(message.id)} skipped`);
    }
    this.pending.delete(message.id as RequestId);
    entry.cleanup();
    if ("error" in message) entry.reject(toMcpError(message.error));
    else entry.resolve(message.result);
  }

  private reply(id: RequestId, outcome: Outcome): void {
    if (this.closedError) return;
    const failed = (error: unknown) => this.note(`cannot send the response to request ${JSON.stringify(id)}: ${errorMessage(error)}`);
    this.send({ jsonrpc: "2.0", id, ...outcome }, failed);
  }

  private handleNotification(method: string, params: Params): void {
    if (method === "notifications/cancelled") {
      const requestId = params?.requestId;
      if (isRequestId(requestId) && !this.incoming.cancel(requestId, params?.reason) && this.pending.get(requestId)?.peerMayEnd) {
        this.handleResponse({ jsonrpc: "2.0", id: requestId, result: { resultType: "complete" } });
      }
      return;
    }
    if (method === "notifications/progress") {
      const token = params?.progressToken;
      const entry = isRequestId(token) ? this.pending.get(token) : undefined;
      if (entry?.onProgress) entry.onProgress(params as unknown as ProgressParams);
      else if (!this.opts.onUnclaimedProgress?.(params as unknown as ProgressParams)) this.note(`progress for unknown token ${JSON.stringify(token)} skipped`);
      return;
    }
    try {
      this.opts.onNotification?.(method, params);
    } catch (error) {
      this.note(`handling ${method} failed: ${errorMessage(error)}`);
    }
  }

  /** Rejects with `error` and tells the peer to stop (unless the request must not be cancelled). */
  private abandon(id: RequestId, error: Error, reason: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.cleanup();
    if (entry.cancellable) this.notify("notifications/cancelled", { requestId: id, reason });
    entry.reject(error);
  }

  /** A message nested past MAX_JSON_DEPTH: the request it answers fails with one line; anything else is skipped. */
  private tooDeep(message: unknown, line: string): void {
    const id = isObject(message) && !("method" in message) ? message.id : undefined;
    const entry = isRequestId(id) ? this.pending.get(id) : undefined;
    if (!entry) return this.skip(`nested deeper than ${MAX_JSON_DEPTH} levels`, line);
    this.pending.delete(id as RequestId);
    entry.cleanup();
    entry.reject(new NestedTooDeepError(MAX_JSON_DEPTH));
  }

  private skip(why: string, line: string): void {
    this.stats.skipped++;
    this.stats.lastSkipped = preview(line);
    this.note(`skipped a line (${why}): ${this.stats.lastSkipped}`);
  }

  private note(text: string): void {
    this.opts.log?.(`${this.opts.peer}: ${text}`);
  }
}
