/**
 * A `type: "http"` server: Streamable HTTP first, and the legacy HTTP+SSE transport when the first
 * POST (initialize) gets 400, 404 or 405 (MCP 2025-11-25, basic/transports#backwards-compatibility).
 * When both fail, the error names both attempts, so the real problem is never masked.
 */
import type { Transport, TransportClosed, TransportDiagnostics } from "./transport.ts";
import type { HttpClientOptions } from "./http-client.ts";
import { Inbox } from "./inbox.ts";
import { LegacySseTransport } from "./legacy-sse.ts";
import type { ParamHeader } from "./mcp-headers.ts";
import type { ModernHttpTransport } from "./rev2026-07-28/http.ts";
import { LegacyFallbackHint, StreamableHttpTransport } from "./streamable-http.ts";
import { errorMessage } from "../../shared/values.ts";

export interface HttpTransportOptions extends HttpClientOptions {
  url: string;
  log?: (line: string) => void;
  /** Notes for --debug only (see StreamableHttpOptions). */
  debugLog?: (line: string) => void;
}

export class HttpTransport implements Transport {
  readonly messages = new Inbox();
  readonly closed: Promise<TransportClosed>;
  private current: StreamableHttpTransport | LegacySseTransport | ModernHttpTransport;
  /** The 2025-era transport, kept while a 2026-07-28 probe runs so a legacy verdict can go back to it. */
  private legacy: StreamableHttpTransport | LegacySseTransport | undefined;
  private resolveClosed!: (closed: TransportClosed) => void;

  constructor(private readonly opts: HttpTransportOptions) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.current = new StreamableHttpTransport({ ...opts, inbox: this.messages });
    this.follow(this.current);
  }

  /** See `StreamableHttpTransport.send`; the first initialize may switch to the legacy transport. */
  async send(message: string): Promise<void> {
    const streamable = this.current;
    try {
      await streamable.send(message);
    } catch (error) {
      if (!(error instanceof LegacyFallbackHint) || !(streamable instanceof StreamableHttpTransport)) throw error;
      this.opts.log?.(`Streamable HTTP refused initialize (${error.reason}); trying the legacy HTTP+SSE transport`);
      const legacy = new LegacySseTransport({ ...this.opts, inbox: this.messages });
      // Switched before the answer can arrive: the session layer sends its next messages at once.
      this.current = legacy;
      try {
        await legacy.send(message);
      } catch (legacyError) {
        this.current = streamable;
        const failed = new Error(`Streamable HTTP: ${error.reason}; legacy HTTP+SSE: ${errorMessage(legacyError)}`);
        // Both refused: the session is over. The legacy transport ended the shared inbox, so
        // `closed` must say why now; otherwise the session layer waits on it for ever.
        this.resolveClosed({ reason: failed.message, byUs: false });
        await legacy.close();
        throw failed;
      }
      this.follow(legacy);
    }
  }

  /**
   * Which era the session layer negotiated (session/negotiate.ts): "modern" speaks sessionless
   * 2026-07-28 Streamable HTTP on the same URL, "legacy" the 2025 transports again.
   */
  async setEra(era: "legacy" | "modern"): Promise<void> {
    const { ModernHttpTransport } = await import("./rev2026-07-28/http.ts");
    if (era === "modern" && !(this.current instanceof ModernHttpTransport)) {
      this.legacy = this.current;
      this.current = new ModernHttpTransport({ ...this.opts, inbox: this.messages });
    } else if (era === "legacy" && this.legacy) {
      this.current = this.legacy;
      this.legacy = undefined;
    }
  }

  /** The tools' `x-mcp-header` annotations, sent as `Mcp-Param-*` on each modern `tools/call`. */
  setToolHeaders(headers: Map<string, readonly ParamHeader[]>): void {
    if ("setToolHeaders" in this.current) this.current.setToolHeaders(headers);
  }

  /** Only Streamable HTTP sends `MCP-Protocol-Version`; the legacy transport predates it. */
  setProtocolVersion(version: string): void {
    if (this.current instanceof StreamableHttpTransport) this.current.setProtocolVersion(version);
  }

  diagnostics(): TransportDiagnostics {
    return this.current.diagnostics();
  }

  async close(): Promise<void> {
    await this.current.close();
    this.resolveClosed({ reason: "was shut down", byUs: true });
  }

  /** The legacy transport ends when its stream does; that end is this transport's. */
  private follow(transport: StreamableHttpTransport | LegacySseTransport | ModernHttpTransport): void {
    void transport.closed.then((closed) => {
      if (this.current === transport) this.resolveClosed(closed);
    });
  }
}
