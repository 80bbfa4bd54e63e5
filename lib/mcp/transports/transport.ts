/**
 * The seam where a transport plugs in (MCP 2025-11-25, basic/transports): messages out, messages
 * in, and a reason when the channel ends. The session layer (`jsonrpc.ts`, `client.ts`) sees only
 * this; processes, pids, exit codes, HTTP statuses and `Mcp-Session-Id`s are each transport's own
 * business and reach a person only through `diagnostics()` and the `closed` reason.
 */
import type { FramedLine } from "./wire/framing.ts";

/** Why a transport ended, ready for a failure line: "exited with code 1", "HTTP 502 Bad Gateway from …". */
export interface TransportClosed {
  reason: string;
  /** True when we closed it ourselves (shutdown), so nothing is reported as a failure. */
  byUs?: boolean;
}

/** What a transport can tell a person about its peer; every field optional. */
export interface TransportDiagnostics {
  /** Last lines of a process's stderr, oldest first. */
  stderrTail?: string[];
  /** The server's process id, for transports that are a process. */
  pid?: number;
  /** The last HTTP status seen, for HTTP transports. */
  httpStatus?: number;
  /** Where the server lives, for display: a URL for HTTP, the command for stdio. */
  endpoint?: string;
}

export interface Transport {
  /**
   * Incoming JSON-RPC messages, one serialised message per item (UTF-8 bytes or text), in arrival
   * order; the iterable ends when the channel ends. Parsing stays in the session layer so that the
   * stdio path keeps one decode and one `JSON.parse` per message.
   */
  readonly messages: AsyncIterable<FramedLine>;
  /**
   * Sends one serialised JSON-RPC message (no trailing newline). Resolves once it is handed to the
   * channel (stdio: written; HTTP: the POST was accepted).
   * @throws Error for that one message (a closed pipe, an HTTP POST that failed); the channel may live on.
   */
  send(message: string): Promise<void>;
  /** Resolves once, when the channel has ended for good, with the reason a failure line prints. */
  readonly closed: Promise<TransportClosed>;
  /** Current diagnostics; cheap, callable at any time, complete once `close()` has resolved. */
  diagnostics(): TransportDiagnostics;
  /** The era negotiated (session/negotiate.ts): HTTP switches to sessionless 2026-07-28 POSTs and back. */
  setEra?(era: "legacy" | "modern"): void | Promise<void>;
  /** 2026-07-28 over HTTP: each tool's `x-mcp-header` annotations, mirrored as `Mcp-Param-*` on `tools/call`. */
  setToolHeaders?(headers: Map<string, readonly import("./mcp-headers.ts").ParamHeader[]>): void;
  /** Told the version `initialize` negotiated; HTTP transports send it as `MCP-Protocol-Version`. */
  setProtocolVersion?(version: string): void;
  /**
   * Ends the channel (stdio: the shutdown sequence; HTTP: DELETE the session). Idempotent, never
   * throws, bounded in time; `graceMs` is how long a peer may take to leave on its own.
   */
  close(graceMs?: number): Promise<void>;
}
