/**
 * The Streamable HTTP transport's optional GET stream (MCP 2025-11-25,
 * basic/transports#listening-for-messages-from-the-server): server-initiated messages on a
 * standing SSE stream. 405, 404, 406 or a reply that is not an event stream means the server
 * offers none. A stream that drops is reopened with its `Last-Event-ID` after the server's
 * `retry:`; after repeated failures the session simply goes on POST-only.
 */
import { SseParser } from "./wire/sse.ts";
import { discard, displayUrl, type HttpClient } from "./http-client.ts";
import { continueParser, DEFAULT_RETRY_MS, readReplyStream } from "./sse-reply.ts";
import { errorMessage } from "../../shared/values.ts";
import { sleep } from "../../shared/async.ts";

/** Consecutive failed GET-stream connections before we stop trying (the session goes on POST-only). */
const MAX_GET_FAILURES = 3;

export interface GetStreamContext {
  http: HttpClient;
  url: string;
  /** Aborted by the transport's close: the stream ends without a note. */
  signal: AbortSignal;
  /** The session id in use now; a change means a new session opened its own stream. */
  sessionId: () => string | undefined;
  headers: (lastEventId: string) => Record<string, string>;
  deliver: (message: string) => void;
  /** Called once the GET request has been answered or has failed: requests wait for that, briefly. */
  opened: () => void;
  log?: (line: string) => void;
  debugLog?: (line: string) => void;
}

/** Follows the GET stream until the server offers none, the transport closes, or it failed too often. */
export async function followGetStream(ctx: GetStreamContext): Promise<void> {
  let parser = new SseParser();
  for (let failures = 0; failures < MAX_GET_FAILURES && !ctx.signal.aborted; ) {
    const session = ctx.sessionId();
    let response: Response;
    try {
      response = await ctx.http.fetch(ctx.url, { method: "GET", headers: ctx.headers(parser.lastEventId), signal: ctx.signal });
      ctx.opened();
    } catch (error) {
      ctx.opened();
      if (!ctx.signal.aborted) ctx.log?.(`GET stream: ${errorMessage(error)}`);
      failures++;
      await sleep(parser.retryMs ?? DEFAULT_RETRY_MS, ctx.signal);
      continue;
    }
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !/^text\/event-stream/i.test(type) || !response.body) {
      const why = response.ok ? `Content-Type ${type || "none"}` : `HTTP ${response.status}`;
      await discard(response);
      ctx.log?.(`no GET stream from ${displayUrl(ctx.url)} (${why}); going on with POST only`);
      return;
    }
    const before = parser.stats.events;
    try {
      await readReplyStream(response.body, parser, { deliver: ctx.deliver, note: ctx.log, debugNote: ctx.debugLog, signal: ctx.signal });
    } catch (error) {
      // Our own close() aborts the stream: that is no break to report.
      if (!ctx.signal.aborted) ctx.log?.(`GET stream broke: ${errorMessage(error)}`);
    }
    if (ctx.signal.aborted || ctx.sessionId() !== session) return; // shut down, or a new session opened its own
    failures = parser.stats.events > before ? 0 : failures + 1;
    await sleep(parser.retryMs ?? DEFAULT_RETRY_MS, ctx.signal);
    parser = continueParser(parser);
  }
}
