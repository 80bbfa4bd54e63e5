/**
 * A server that lives inside the host program (the Agent SDK's `createSdkMcpServer`): its
 * JSON-RPC messages travel over the host's control channel as `mcp_message` control requests, in
 * both directions. We send one per message; the host answers a request's with the server's
 * response (`response.mcp_response`), and a notification's or response's with a placeholder we
 * drop. Messages the server sends unasked (notifications, its own requests) come as control
 * requests from the host. The channel itself belongs to the host mode; this file only needs its shape.
 */
import type { Transport, TransportClosed, TransportDiagnostics } from "./transport.ts";
import { errorMessage } from "../../shared/values.ts";

/** The host's control channel as an sdk transport uses it. */
export interface SdkHost {
  /**
   * Sends `message` to the host's server `server` as one `mcp_message` control request; resolves
   * with the `mcp_response` of the host's answer (undefined when it had none).
   * @throws Error when the host answers with an error or the channel has closed
   */
  send(server: string, message: unknown): Promise<unknown>;
  /** Hands `server`'s unasked messages to `onMessage`; returns the function that stops it. */
  subscribe(server: string, onMessage: (message: unknown) => void): () => void;
  /** Resolves when the channel ends (the host closed our stdin). */
  readonly ended: Promise<void>;
}

export class SdkTransport implements Transport {
  readonly messages: AsyncIterable<string>;
  readonly closed: Promise<TransportClosed>;
  private readonly queue: string[] = [];
  private wake: (() => void) | undefined;
  private done = false;
  private settle!: (c: TransportClosed) => void;
  private readonly unsubscribe: () => void;

  /**
   * @param server the server's name as the host knows it (the `mcpServers` key)
   * @param host the control channel
   */
  constructor(
    private readonly server: string,
    private readonly host: SdkHost,
  ) {
    this.closed = new Promise((resolve) => (this.settle = resolve));
    this.unsubscribe = host.subscribe(server, (m) => this.push(m));
    void host.ended.then(() => this.end({ reason: "the host program closed the channel" }));
    this.messages = this.iterate();
  }

  private async *iterate(): AsyncGenerator<string> {
    for (;;) {
      while (this.queue.length) yield this.queue.shift()!;
      if (this.done) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private push(message: unknown): void {
    if (this.done) return;
    this.queue.push(JSON.stringify(message));
    this.wake?.();
  }

  private end(closed: TransportClosed): void {
    if (this.done) return;
    this.done = true;
    this.unsubscribe();
    this.settle(closed);
    this.wake?.();
  }

  /**
   * Sends one JSON-RPC message. For a request, the server's response arrives on `messages`
   * once the host answers; the placeholder answer to anything else is dropped.
   * @throws Error when the channel has closed or the host refused the message
   */
  async send(message: string): Promise<void> {
    if (this.done) throw new Error(`MCP server "${this.server}": the host channel is closed`);
    const parsed = JSON.parse(message) as { id?: unknown; method?: unknown };
    const isRequest = typeof parsed.method === "string" && parsed.id !== undefined && parsed.id !== null;
    const answer = this.host.send(this.server, parsed);
    if (!isRequest) {
      await answer;
      return;
    }
    // The response comes later, through `messages`, so the session layer matches it by id as for any transport.
    answer.then(
      (response) => {
        if (response !== undefined) this.push(response);
      },
      (err: unknown) => {
        const text = errorMessage(err);
        this.push({ jsonrpc: "2.0", id: parsed.id, error: { code: -32603, message: `the host program failed: ${text}` } });
      },
    );
  }

  diagnostics(): TransportDiagnostics {
    return { endpoint: `in the host program (sdk server "${this.server}")` };
  }

  async close(): Promise<void> {
    this.end({ reason: "closed", byUs: true });
  }
}
