/**
 * The control half of the Agent SDK's host protocol (stream-json in and out): our own
 * `control_request`s to the host (`can_use_tool`, `mcp_message`) matched to its
 * `control_response`s by `request_id`, our answers to its requests, and the sdk-server messages
 * it sends us unasked. Shapes as the SDK's `SDKControlRequest` / `SDKControlResponse`:
 *   {"type":"control_request","request_id":"…","request":{"subtype":"…",…}}
 *   {"type":"control_response","response":{"subtype":"success","request_id":"…","response":{…}}}
 *   {"type":"control_response","response":{"subtype":"error","request_id":"…","error":"…"}}
 */
import type { SdkHost } from "../../mcp/transports/sdk.ts";

/** The host answered one of our control requests with an error. */
export class ControlError extends Error {}

interface Pending {
  resolve(response: Record<string, unknown>): void;
  reject(err: Error): void;
}

export class HostChannel {
  private readonly pending = new Map<string, Pending>();
  private readonly subscribers = new Map<string, (message: unknown) => void>();
  private next = 1;
  private closed = false;
  private markEnded!: () => void;
  /** Resolves when the host closed our stdin: no answer can come any more. */
  readonly ended: Promise<void> = new Promise((resolve) => (this.markEnded = resolve));

  /** @param write emits one message on stdout (one JSON line) */
  constructor(private readonly write: (message: object) => void) {}

  /**
   * Sends a control request and resolves with the `response` payload of the host's success answer.
   * With `signal`, an abort sends `control_cancel_request` and rejects with the abort reason.
   * @throws ControlError when the host answers with an error; Error when the channel has ended
   */
  request(request: { subtype: string; [k: string]: unknown }, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new Error("the host program closed the channel"));
    const id = `agent_${this.next++}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.write({ type: "control_cancel_request", request_id: id });
        reject(signal!.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      this.pending.set(id, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      this.write({ type: "control_request", request_id: id, request });
    });
  }

  /** Handles a `control_response` line from the host; one for a request we no longer wait for is dropped. */
  onResponse(message: { response?: { subtype?: string; request_id?: string; response?: unknown; error?: unknown } }): void {
    const r = message.response;
    const pending = r?.request_id === undefined ? undefined : this.pending.get(r.request_id);
    if (!pending || !r?.request_id) return;
    this.pending.delete(r.request_id);
    if (r.subtype === "error") pending.reject(new ControlError(typeof r.error === "string" ? r.error : "the host refused the request"));
    else pending.resolve(r.response && typeof r.response === "object" ? (r.response as Record<string, unknown>) : {});
  }

  /** Answers the host's control request `requestId`: success with `response`, or an error naming what failed. */
  respond(requestId: string, outcome: { response?: object } | { error: string }): void {
    const response =
      "error" in outcome
        ? { subtype: "error", request_id: requestId, error: outcome.error }
        : { subtype: "success", request_id: requestId, response: outcome.response ?? {} };
    this.write({ type: "control_response", response });
  }

  /** A message the host's sdk server `server` sent unasked (an `mcp_message` request from the host). */
  deliver(server: string, message: unknown): boolean {
    const to = this.subscribers.get(server);
    to?.(message);
    return to !== undefined;
  }

  /** Stdin ended: every pending request fails, later ones too. */
  end(): void {
    this.closed = true;
    for (const p of this.pending.values()) p.reject(new Error("the host program closed the channel"));
    this.pending.clear();
    this.markEnded();
  }

  /** The channel as sdk transports use it (lib/mcp/transports/sdk.ts). */
  readonly sdkHost: SdkHost = {
    send: async (server, message) => (await this.request({ subtype: "mcp_message", server_name: server, message })).mcp_response,
    subscribe: (server, onMessage) => {
      this.subscribers.set(server, onMessage);
      return () => {
        if (this.subscribers.get(server) === onMessage) this.subscribers.delete(server);
      };
    },
    ended: this.ended,
  };
}
