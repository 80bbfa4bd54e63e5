/**
 * The peer's requests to us on one JSON-RPC connection (MCP 2025-11-25 basic#requests,
 * basic/utilities/cancellation and ping): each is served by the handler and answered once, with
 * its result or its error; `ping` is answered at once. The peer's `notifications/cancelled`, or
 * the connection's end, aborts a handler, and a cancelled request gets no response. While one is
 * served, the clocks of our own requests stand still (deadline.ts): their answers may wait on it.
 */
import { methodNotFound, toErrorObject } from "../protocol/errors.ts";
import type { JsonRpcErrorObject, RequestId } from "../protocol/protocol.ts";
import type { Deadlines } from "./deadline.ts";

export type Params = Record<string, unknown> | undefined;

export interface IncomingRequestContext {
  id: RequestId;
  /** Aborted when the peer sends `notifications/cancelled` for this request or the connection closes. */
  signal: AbortSignal;
}

/** Answers a request from the peer. Throw `McpError` to choose the error code; other errors become -32603. */
export type RequestHandler = (method: string, params: Params, ctx: IncomingRequestContext) => Promise<unknown>;

/** What a response carries. */
export type Outcome = { result: unknown } | { error: JsonRpcErrorObject };

export class IncomingRequests {
  private readonly serving = new Map<RequestId, AbortController>();

  /**
   * @param handler absent → every request but `ping` gets -32601.
   * @param reply sends one response (the connection drops it once closed).
   */
  constructor(
    private readonly handler: RequestHandler | undefined,
    private readonly deadlines: Deadlines,
    private readonly reply: (id: RequestId, outcome: Outcome) => void,
  ) {}

  serve(id: RequestId, method: string, params: Params): void {
    if (method === "ping") return this.reply(id, { result: {} });
    const controller = new AbortController();
    this.serving.set(id, controller);
    const handler = this.handler;
    // Our requests' answers may wait on this one (a tool call on the form it asked for): their clocks stop meanwhile.
    const release = this.deadlines.hold();
    void (async () => {
      let outcome: Outcome;
      try {
        if (!handler) throw methodNotFound(method);
        outcome = { result: (await handler(method, params, { id, signal: controller.signal })) ?? {} };
      } catch (error) {
        outcome = { error: toErrorObject(error) };
      }
      release();
      if (this.serving.get(id) === controller) this.serving.delete(id);
      // A cancelled request gets no response (basic/utilities/cancellation).
      if (!controller.signal.aborted) this.reply(id, outcome);
    })();
  }

  /** The peer's `notifications/cancelled` for `id`: true when it named a request being served, which is then aborted. */
  cancel(id: RequestId, reason: unknown): boolean {
    const controller = this.serving.get(id);
    if (!controller) return false;
    this.serving.delete(id);
    controller.abort(new Error(String(reason ?? "cancelled by the peer")));
    return true;
  }

  /** The connection closed: every handler still running is aborted with `error`. */
  abortAll(error: Error): void {
    for (const controller of this.serving.values()) controller.abort(error);
    this.serving.clear();
  }
}
