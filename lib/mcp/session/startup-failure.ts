/**
 * Why a session failed before its handshake completed, in one line (MCP 2025-11-25 basic/lifecycle):
 * the transport's own words for how it ended, no answer within the start-up timeout (with what the
 * server printed instead), or the server's refusal of `initialize`.
 */
import { ConnectionClosedError, McpError, RequestTimeoutError } from "../protocol/errors.ts";
import { settlesWithin } from "../../shared/async.ts";
import type { Transport } from "../transports/transport.ts";
import type { JsonRpcConnection } from "./jsonrpc.ts";

/** After a write hit a broken pipe, how long the transport may take to report the exit that broke it (ms). */
const BROKEN_PIPE_EXIT_WAIT_MS = 1000;

/** What the failure's words come from. */
export interface StartingSession {
  conn: JsonRpcConnection;
  transport: Transport;
  /** The transport's reason for ending (McpClient.endReason). */
  endReason(): Promise<string>;
}

/** The error to report for `error`, thrown while starting within `timeoutMs` ms. */
export async function startupFailure(error: unknown, timeoutMs: number, session: StartingSession): Promise<Error> {
  // The transport's own words for how it ended; a send that failed on a live channel speaks for itself.
  if (error instanceof ConnectionClosedError && session.conn.isClosed) return new Error(`${await session.endReason()} before the handshake`);
  // A server that exits at once breaks the pipe under our initialize: its exit says why, EPIPE does not.
  if (error instanceof ConnectionClosedError && errnoOf(error.cause) === "EPIPE" && (await settlesWithin(session.transport.closed, BROKEN_PIPE_EXIT_WAIT_MS))) {
    return new Error(`${await session.endReason()} before the handshake`);
  }
  // An HTTP transport's reason ("HTTP 502 Bad Gateway from …") is the whole story.
  if (error instanceof ConnectionClosedError && error.cause instanceof Error) return error.cause;
  if (error instanceof RequestTimeoutError) {
    const { skipped, lastSkipped, strayIds } = session.conn.stats;
    const garbage = skipped ? `; its output had ${skipped} line(s) that are not JSON-RPC, the last: ${lastSkipped}` : "";
    // A server answering with the wrong id looks silent otherwise: say what it answered to.
    const stray = strayIds.length ? `; it answered request id ${strayIds.map((id) => JSON.stringify(id)).join(", ")}, which we never sent` : "";
    return new Error(`no answer to initialize within ${timeoutMs} ms${garbage}${stray}`);
  }
  if (error instanceof McpError) return new Error(`initialize failed: ${error.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

/** A system error's code (`EPIPE`, `ENOENT`…), or undefined. */
function errnoOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
