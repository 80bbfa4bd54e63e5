/**
 * What following a task needs of one server's session (MCP 2025-11-25, basic/utilities/tasks):
 * requests, its notifications, a clock that stands still while we serve its own requests, and
 * its end. `McpClient` is one; tests may pass their own.
 */
import type { Params, RequestOptions } from "../session/jsonrpc.ts";
import type { ServerCapabilities } from "../protocol/protocol.ts";

export interface TaskPeer {
  /** The server's name in our configuration. */
  readonly name: string;
  /** What it declared in `initialize`. */
  readonly capabilities: ServerCapabilities;
  /** One request; rejects like `McpClient.callTool`. */
  sendRequest<T = unknown>(method: string, params: Params, opts?: RequestOptions): Promise<T>;
  /**
   * Calls `expire` after `ms` of time not spent serving the server's own requests (a form being
   * filled in); returns the function that stops it.
   */
  startClock(ms: number, expire: () => void): () => void;
  /** Hears every notification `method`; returns the function that stops listening. */
  listen(method: string, fn: (params: Params) => void): () => void;
  /** Answers a SEP-2663 task's `inputRequests` by key with our handlers (McpClient.answerInputRequests). */
  answerInputRequests?(requests: unknown, signal?: AbortSignal): Promise<Record<string, unknown> | undefined>;
  /** Resolves with the reason once the session ended. */
  readonly closed: Promise<Error>;
}
