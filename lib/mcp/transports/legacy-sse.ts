/**
 * The legacy HTTP+SSE transport (MCP 2024-11-05, basic/transports#http-with-sse; kept for
 * backwards compatibility by 2025-11-25): GET the URL as an event stream, wait for its `endpoint`
 * event (a URL resolved against the stream's), POST every message there, and read every response
 * and server message from the stream. The stream's end is the session's end.
 */
import { readEvents, SseParser } from "./wire/sse.ts";
import type { Transport, TransportClosed, TransportDiagnostics } from "./transport.ts";
import { describeHttpError, discard, displayUrl, HttpClient, type HttpClientOptions } from "./http-client.ts";
import { Inbox } from "./inbox.ts";
import { errorMessage } from "../../shared/values.ts";

export interface LegacySseOptions extends HttpClientOptions {
  url: string;
  log?: (line: string) => void;
  inbox?: Inbox;
}

export class LegacySseTransport implements Transport {
  readonly messages: Inbox;
  readonly closed: Promise<TransportClosed>;
  private readonly http: HttpClient;
  private readonly stop = new AbortController();
  private readonly endpoint: Promise<string>;
  private resolveClosed!: (closed: TransportClosed) => void;
  private lastStatus: number | undefined;
  private ended = false;

  /** Opens the stream at once; `send` waits for its `endpoint` event. */
  constructor(private readonly opts: LegacySseOptions) {
    this.http = new HttpClient(opts);
    this.messages = opts.inbox ?? new Inbox();
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    let found!: (url: string) => void;
    let failed!: (error: Error) => void;
    this.endpoint = new Promise<string>((resolve, reject) => ((found = resolve), (failed = reject)));
    this.endpoint.catch(() => {}); // also reported through `closed`
    void this.run(found, failed);
  }

  /**
   * POSTs one message to the endpoint the stream named; its answer comes on the stream.
   * @throws Error naming why the stream could not be opened, or the POST's HTTP status.
   */
  async send(message: string): Promise<void> {
    const endpoint = await this.endpoint;
    const response = await this.http.fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: message,
      signal: this.stop.signal,
    });
    this.lastStatus = response.status;
    if (!response.ok) throw new Error(await describeHttpError(response, displayUrl(endpoint)));
    await discard(response);
  }

  diagnostics(): TransportDiagnostics {
    return { endpoint: displayUrl(this.opts.url), ...(this.lastStatus === undefined ? {} : { httpStatus: this.lastStatus }) };
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.finish({ reason: "was shut down", byUs: true });
  }

  private async run(found: (url: string) => void, failed: (error: Error) => void): Promise<void> {
    let reason = "closed its event stream";
    try {
      const response = await this.http.fetch(this.opts.url, { method: "GET", headers: { Accept: "text/event-stream" }, signal: this.stop.signal });
      this.lastStatus = response.status;
      const type = response.headers.get("content-type") ?? "";
      if (!response.ok) throw new Error(await describeHttpError(response, displayUrl(this.opts.url)));
      if (!/^text\/event-stream/i.test(type) || !response.body) {
        await discard(response);
        throw new Error(`GET ${displayUrl(this.opts.url)} is not an event stream (Content-Type: ${type || "none"})`);
      }
      const streamUrl = response.url || this.opts.url;
      let endpoint: string | undefined;
      for await (const event of readEvents(response.body, { parser: new SseParser(), signal: this.stop.signal })) {
        if (event.type === "endpoint") {
          endpoint = this.endpointUrl(event.data, streamUrl);
          found(endpoint);
        } else if (event.type === "message" && event.data.trim() !== "") {
          this.messages.push(event.data);
        } else {
          this.opts.log?.(`skipped an SSE event (type ${JSON.stringify(event.type.slice(0, 40))})`);
        }
      }
      if (endpoint === undefined) throw new Error(`the event stream from ${displayUrl(this.opts.url)} ended without an endpoint event`);
    } catch (error) {
      reason = errorMessage(error);
      failed(error instanceof Error ? error : new Error(reason));
    }
    this.finish({ reason, byUs: this.stop.signal.aborted });
  }

  /** The `endpoint` event's URL, on the stream's own origin (a message endpoint elsewhere is refused). */
  private endpointUrl(data: string, streamUrl: string): string {
    const url = new URL(data.trim(), streamUrl);
    if (url.origin !== new URL(streamUrl).origin) throw new Error(`the endpoint event names another origin (${url.origin}); refused`);
    return url.href;
  }

  private finish(closed: TransportClosed): void {
    if (this.ended) return;
    this.ended = true;
    this.messages.end();
    this.resolveClosed(closed);
  }
}
