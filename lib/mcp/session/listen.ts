/**
 * The `subscriptions/listen` request of MCP 2026-07-28 (basic/patterns/subscriptions): the
 * long-lived stream that replaces the 2025 GET stream for `list_changed` notifications. Opened for
 * the list kinds the server declared `listChanged` on; reopened after it ends (the server's graceful
 * close or a drop) with capped exponential back-off and jitter, until stopped.
 */
import { McpError } from "../protocol/errors.ts";
import type { ServerCapabilities } from "../protocol/protocol.ts";
import { sleep } from "../../shared/async.ts";

/** First reopen delay and the cap (ms); each failure doubles the delay, a stream that delivered resets it. */
export const LISTEN_BACKOFF_MS = { first: 500, max: 30_000 };

/** The `notifications` filter for `caps`, or undefined when the server announces no list changes. */
export function listenFilter(caps: ServerCapabilities): Record<string, boolean> | undefined {
  const filter: Record<string, boolean> = {};
  if (caps.tools?.listChanged) filter.toolsListChanged = true;
  if (caps.prompts?.listChanged) filter.promptsListChanged = true;
  if (caps.resources?.listChanged) filter.resourcesListChanged = true;
  return Object.keys(filter).length ? filter : undefined;
}

export interface Listener {
  /** Ends the stream (HTTP: closes it; stdio: `notifications/cancelled`) and stops reopening. */
  stop(): void;
  /** Called when a notification arrived on any stream: the next reopen waits the first delay again. */
  heard(): void;
}

/**
 * Keeps one `subscriptions/listen` open with `request` (which resolves when the server ends it
 * gracefully and rejects when the stream drops) while `alive()`.
 */
export function listen(
  filter: Record<string, boolean>,
  request: (params: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>,
  alive: () => boolean,
  note?: (line: string) => void,
): Listener {
  const stop = new AbortController();
  let delay = LISTEN_BACKOFF_MS.first;
  void (async () => {
    while (!stop.signal.aborted && alive()) {
      try {
        await request({ notifications: filter }, stop.signal);
        note?.("subscriptions/listen ended by the server; reopening");
      } catch (error) {
        if (stop.signal.aborted || !alive()) return;
        // A JSON-RPC error is the server's answer (no listen, a filter it refuses): asking again changes nothing.
        if (error instanceof McpError) {
          note?.(`subscriptions/listen refused (${error.message}); list changes will not be heard`);
          return;
        }
        note?.(`subscriptions/listen dropped (${error instanceof Error ? error.message : String(error)}); reopening in about ${delay} ms`);
      }
      await sleep(delay * (0.5 + Math.random() / 2), stop.signal);
      delay = Math.min(delay * 2, LISTEN_BACKOFF_MS.max);
    }
  })();
  return {
    stop: () => stop.abort(),
    heard: () => {
      delay = LISTEN_BACKOFF_MS.first;
    },
  };
}
