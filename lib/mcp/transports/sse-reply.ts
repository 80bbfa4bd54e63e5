/**
 * Reading one SSE stream of the Streamable HTTP transport (MCP 2025-11-25,
 * basic/transports#sending-messages-to-the-server and #resumability-and-redelivery): JSON-RPC
 * messages out of `message` events, non-JSON-RPC events skipped with a note, and for a POST's
 * reply, whether the response to its request has arrived.
 */
import { readEvents, SseParser, type SseEvent } from "../sse.ts";

/** Above this size an event is not parsed twice to tell a response from a request (1 MiB). */
const CLASSIFY_LIMIT = 1 << 20;

/**
 * After the response, how long the rest of a reply stream may take to end before it is cancelled
 * (ms). The server SHOULD end it at once (basic/transports#sending-messages-to-the-server); reading
 * to that end, rather than cancelling the body mid-stream, keeps sequential calls measurably faster.
 */
export const DRAIN_MS = 1000;

export interface StreamReadOptions {
  /** Receives each JSON-RPC message's text. */
  deliver: (message: string) => void;
  /** Notes for --verbose (skipped events). */
  note?: (line: string) => void;
  /** The id of the request this stream answers; the promise resolves once its response arrived. */
  requestId?: string | number;
  signal?: AbortSignal;
  /** How long the rest of the stream may take after the response (ms); DRAIN_MS when absent. */
  drainMs?: number;
}

/**
 * Reads `body` with `parser` (so its `lastEventId` and `retryMs` survive for a resumption).
 * Resolves true as soon as the response to `opts.requestId` arrived, false when the stream ended
 * first. After the response the rest of the stream is still read, in the background, for at most
 * `drainMs`: anything more on it is delivered too, then it is cancelled if it has not ended.
 * @throws the stream's own read error (a connection reset) before the response, for the caller to
 *   treat as an end; one after it is ignored.
 */
export async function readReplyStream(body: ReadableStream<Uint8Array>, parser: SseParser, opts: StreamReadOptions): Promise<boolean> {
  const drained = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, drained.signal]) : drained.signal;
  const events = readEvents(body, { parser, signal });
  const take = (event: SseEvent): boolean => {
    if (!isMessageEvent(event)) {
      opts.note?.(`skipped an SSE event (${describeEvent(event)})`);
      return false;
    }
    opts.deliver(event.data);
    return opts.requestId !== undefined && respondsTo(event.data, opts.requestId);
  };
  let answered = false;
  try {
    while (!answered) {
      const next = await events.next();
      if (next.done) return false;
      answered = take(next.value);
    }
  } catch (error) {
    await events.return(undefined); // cancels the stream, as leaving a for-await loop would
    throw error;
  }
  drainRest(events, take, drained, opts.drainMs ?? DRAIN_MS);
  return true;
}

/** Reads what follows the response in the background for at most `ms`, then cancels the stream. */
function drainRest(events: AsyncGenerator<SseEvent>, take: (event: SseEvent) => boolean, drained: AbortController, ms: number): void {
  const timer = setTimeout(() => drained.abort(), ms);
  timer.unref?.();
  void (async () => {
    for (let next = await events.next(); !next.done; next = await events.next()) take(next.value);
  })()
    .catch(() => {}) // a reset after the response: nothing is waiting on this stream any more
    .finally(() => clearTimeout(timer));
}

/** A new parser continuing `previous`'s stream: same last event ID and retry, fresh line state. */
export function continueParser(previous: SseParser): SseParser {
  const next = new SseParser();
  next.lastEventId = previous.lastEventId;
  next.retryMs = previous.retryMs;
  return next;
}

function isMessageEvent(event: SseEvent): boolean {
  return event.type === "message" && event.data.trim() !== "";
}

function describeEvent(event: SseEvent): string {
  if (event.data.trim() === "") return event.id ? `priming, id ${JSON.stringify(event.id.slice(0, 40))}` : "empty data";
  return `event type ${JSON.stringify(event.type.slice(0, 40))}`;
}

/**
 * True when `data` is the response (result or error) to request `id`. Events over 1 MiB are not
 * parsed again: one is taken for the response unless it starts like a request or notification.
 */
export function respondsTo(data: string, id: string | number): boolean {
  if (data.length > CLASSIFY_LIMIT) return !/"method"\s*:/.test(data.slice(0, 256));
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return false;
  }
  if (typeof message !== "object" || message === null) return false;
  const m = message as Record<string, unknown>;
  return m.method === undefined && m.id === id && ("result" in m || "error" in m);
}
