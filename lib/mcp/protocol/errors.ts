/**
 * The errors the MCP client raises, one class per way a request can end badly, so callers
 * (the registry, the inspector) can tell a server's answer from a timeout or a dead process.
 * Each carries a `code` to switch on, as the SDK v2's errors do (SdkErrorCode): the JSON-RPC code
 * for the server's own answer (McpError), a name for each of the client's ways a request ends.
 */
import { ErrorCode, type JsonRpcErrorObject } from "./protocol.ts";
import { errorMessage } from "../../shared/values.ts";

/**
 * A JSON-RPC error response from the peer (or one we send back), with its code and data.
 * `rpcMessage` is the error object's `message` as on the wire; `message` is the one line every
 * report prints, stating the code once, in front: `MCP error -32602: Resource demo://nope not
 * found`. Servers built on the MCP SDK already put that prefix in their message; it is not repeated.
 */
export class McpError extends Error {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    const prefix = `MCP error ${code}:`;
    super(`${prefix} ${rpcMessage.startsWith(prefix) ? rpcMessage.slice(prefix.length).trimStart() : rpcMessage}`);
    this.name = "McpError";
  }
}

/** The client's own ways a request ends, as codes (the server's answers carry their JSON-RPC code). */
export const ClientErrorCode = {
  RequestTimeout: "REQUEST_TIMEOUT",
  RequestCancelled: "REQUEST_CANCELLED",
  NotSent: "NOT_SENT",
  ConnectionClosed: "CONNECTION_CLOSED",
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** The request got no response within its timeout; `notifications/cancelled` was sent. */
export class RequestTimeoutError extends Error {
  readonly code = ClientErrorCode.RequestTimeout;
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    peer: string,
  ) {
    super(`${peer}: ${method} timed out after ${timeoutMs} ms`);
    this.name = "RequestTimeoutError";
  }
}

/** The request's abort signal fired; `notifications/cancelled` was sent. */
export class RequestCancelledError extends Error {
  readonly code = ClientErrorCode.RequestCancelled;
  constructor(method: string, peer: string) {
    super(`${peer}: ${method} was cancelled`);
    this.name = "RequestCancelledError";
  }
}

/**
 * A request that cannot have reached the server (connection refused, name not resolved, after
 * the transport's own retries): sending it again later cannot make a tool run twice.
 */
/** The peer's answer nests objects or arrays past the depth limit (protocol/depth.ts): that one request fails. */
export class NestedTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`answer nested deeper than ${limit} levels`);
    this.name = "NestedTooDeepError";
  }
}

export class NotSentError extends Error {
  readonly code = ClientErrorCode.NotSent;
  constructor(message: string) {
    super(message);
    this.name = "NotSentError";
  }
}

/** The connection closed (peer exited, stdout ended, or `close()`) before the response came. */
export class ConnectionClosedError extends Error {
  readonly code = ClientErrorCode.ConnectionClosed;
  constructor(
    message: string,
    /** True when we closed it (shutdown), false when the peer went away. */
    readonly byUs = false,
    /** The transport's own error, when a send failed (an HTTP status, a refused connection). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ConnectionClosedError";
  }
}

/** Every error the client raises for a request; `code` tells them apart. */
export type McpClientError = McpError | RequestTimeoutError | RequestCancelledError | NotSentError | ConnectionClosedError;

/** `error` when the MCP client raised it, so that `switch (e.code)` can tell what happened; else undefined. */
export function clientError(error: unknown): McpClientError | undefined {
  const ours = error instanceof McpError || error instanceof RequestTimeoutError || error instanceof RequestCancelledError;
  return ours || error instanceof NotSentError || error instanceof ConnectionClosedError ? error : undefined;
}

/** `-32601` for a method this side does not implement. */
export function methodNotFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** A JSON-RPC `error` member from the peer as an `McpError`; malformed ones become -32603. */
export function toMcpError(error: unknown): McpError {
  const e = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  if (typeof e.code === "number" && typeof e.message === "string") return new McpError(e.code, e.message, e.data);
  return new McpError(ErrorCode.InternalError, `malformed error response: ${String(JSON.stringify(error)).slice(0, 120)}`);
}

/** What we send back for an error thrown by a request handler: `McpError` keeps its code. */
export function toErrorObject(error: unknown): JsonRpcErrorObject {
  if (error instanceof McpError) {
    return { code: error.code, message: error.rpcMessage, ...(error.data === undefined ? {} : { data: error.data }) };
  }
  return { code: ErrorCode.InternalError, message: errorMessage(error) };
}
