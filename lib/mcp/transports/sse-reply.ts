/**
 * Reading one SSE stream of the Streamable HTTP transport (MCP 2025-11-25,
 * basic/transports#sending-messages-to-the-server and #resumability-and-redelivery): JSON-RPC
 * messages out of `message` events, non-JSON-RPC events skipped with a note, and for a POST's
 * reply, whether the response to its request has arrived.
 */
import { readEvents, SseParser, type SseEvent } from "./wire/sse.ts";

/** Reconnection delay when the server sent no `retry:` (ms). */
export const DEFAULT_RETRY_MS = 1000;
/** Above this size an event is not parsed twice to tell a response from a request (1 MiB). */
const CLASSIFY_LIMIT = 1 << 20;

export interface StreamReadOptions {
  /** Receives each JSON-RPC message's text. */
  deliver: (message: string) => void;
  /** Notes for --verbose (skipped events). */
  note?: (line: string) => void;
  /** Notes for --debug: skipped priming events, which a resumable server sends on every stream. */
  debugNote?: (line: string) => void;
  /** The id of the request this stream answers; reading stops once its response arrived. */
  requestId?: string | number;
  signal?: AbortSignal;
}

/**
 * Reads `body` with `parser` (so its `lastEventId` and `retryMs` survive for a resumption).
 * Resolves true when the response to `opts.requestId` arrived, false when the stream ended first.
 * @throws the stream's own read error (a connection reset), for the caller to treat as an end.
 */
export async function readReplyStream(body: ReadableStream<Uint8Array>, parser: SseParser, opts: StreamReadOptions): Promise<boolean> {
  for await (const event of readEvents(body, { parser, signal: opts.signal })) {
    if (!isMessageEvent(event)) {
      (isPriming(event) ? opts.debugNote : opts.note)?.(`skipped an SSE event (${describeEvent(event)})`);
      continue;
    }
    opts.deliver(event.data);
    if (opts.requestId !== undefined && respondsTo(event.data, opts.requestId)) return true;
  }
  return false;
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

/** An event with an id and no data: it only gives the stream a point to resume from (basic/transports#resumability-and-redelivery). */
function isPriming(event: SseEvent): boolean {
  return event.data.trim() === "" && Boolean(event.id);
}

function describeEvent(event: SseEvent): string {
  if (isPriming(event)) return `priming, id ${JSON.stringify(event.id.slice(0, 40))}`;
  if (event.data.trim() === "") return "empty data";
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
