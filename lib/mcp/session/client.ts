/**
 * One MCP server's session (MCP 2025-11-25, basic/lifecycle, server/*, client/roots,
 * client/sampling): paginated lists, calls, the server's own requests and notifications, on the
 * session the handshake (handshake.ts) established.
 */
import { ConnectionClosedError } from "../protocol/errors.ts";
import { type ClientFeatures, serveRequest } from "./features.ts";
import { JsonRpcConnection, type Params, type RequestOptions } from "./jsonrpc.ts";
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Implementation,
  ListKind,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  ReadResourceResult,
  ServerCapabilities,
} from "../protocol/protocol.ts";
import type { Transport, TransportDiagnostics } from "../transports/transport.ts";
import { tagRelated } from "../protocol/related-task.ts";
import { paginate } from "./pagination.ts";
import { settlesWithin } from "../../shared/async.ts";
import type { Era, NegotiationPlan } from "./negotiate.ts";
import { type Established, handshake, type SessionInfo } from "./handshake.ts";
import type { ModernSession } from "./rev2026-07-28/session.ts";
import type { Listener } from "./listen.ts";

/** Once the message stream ended, how long the transport may take to say why (ms); stdio waits up to 1 s for an exit code itself. */
const TRANSPORT_CLOSED_WAIT_MS = 2000;

export interface McpClientOptions {
  /** What we offer the server: the capabilities declared and the handlers of its requests. */
  features: ClientFeatures;
  /** Diagnostics (skipped lines, the server's `notifications/message`): shown under --verbose. */
  log?: (line: string) => void;
  /** Problems the user should see (a pagination loop, a malformed list entry). */
  warn?: (line: string) => void;
  /** Every JSON-RPC message in and out (--debug). */
  trace?: (direction: "send" | "receive", message: string) => void;
  /** Called after a `notifications/<kind>/list_changed` marked `kind` dirty. */
  onListChanged?: (kind: ListKind) => void;
  /** How the era is found (session/negotiate.ts); absent → `initialize` first, probe within a third of the connect timeout. */
  negotiation?: NegotiationPlan & { remember?: (era: Era, version: string) => void };
  /** 2026-07-28: the `io.modelcontextprotocol/logLevel` each request asks for (server log messages are shown). */
  logLevel?: string;
}

export type { SessionInfo } from "./handshake.ts";

export class McpClient {
  protocolVersion: string | undefined;
  capabilities: ServerCapabilities = {};
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** Lists the server announced as changed and not re-listed since. */
  readonly dirty = new Set<ListKind>();
  private readonly conn: JsonRpcConnection;
  private initialized = false;
  private readonly peer: string;
  /** The 2026-07-28 era's request layer; undefined in a 2025 session. */
  private modern: ModernSession | undefined;
  private listener: Listener | undefined;
  private readonly listeners = new Map<string, Set<(params: Params) => void>>();

  constructor(
    readonly name: string,
    readonly transport: Transport,
    private readonly opts: McpClientOptions,
  ) {
    this.peer = `MCP server "${name}"`;
    this.conn = new JsonRpcConnection(transport.messages, {
      peer: this.peer,
      write: (message) => transport.send(message),
      onRequest: (method, params, ctx) => serveRequest(opts.features, method, params, { server: name, signal: ctx.signal }).then((r) => tagRelated(params, r)),
      onNotification: (method, params) => this.onNotification(method, params),
      onUnclaimedProgress: (progress) => this.notifyListeners("notifications/progress", progress as unknown as Params),
      log: opts.log,
      trace: opts.trace,
    });
    void transport.closed.then((closed) => this.conn.close(new ConnectionClosedError(`${this.peer} ${closed.reason}`, closed.byUs)));
  }

  /** The transport's diagnostics: stderr tail and pid for stdio, the last HTTP status for HTTP. */
  diagnostics(): TransportDiagnostics {
    return this.transport.diagnostics();
  }

  /** True after a successful handshake and until the connection closes. */
  get connected(): boolean {
    return this.initialized && !this.conn.isClosed;
  }

  /** Resolves with the reason when the connection closes (exit, EOF, or `close`). */
  get closed(): Promise<Error> {
    return this.conn.closed;
  }

  /**
   * The handshake (handshake.ts): sends the `initializeRequest` frame (or `server/discover`),
   * keeps capabilities, serverInfo and instructions.
   * @throws Error whose message is the reason alone, e.g. "exited with code 1 before the handshake".
   */
  async connect(opts: { timeoutMs: number }): Promise<SessionInfo> {
    const info = await handshake(
      {
        conn: this.conn,
        transport: this.transport,
        server: this.name,
        peer: this.peer,
        features: this.opts.features,
        negotiation: this.opts.negotiation,
        logLevel: this.opts.logLevel,
        log: this.opts.log,
        endReason: () => this.endReason(),
        // The model's list is refreshed before its next turn too: the server's tools may have changed.
        relistTools: async () => {
          await this.listTools();
          this.dirty.add("tools");
        },
        adopt: (established) => this.adopt(established),
      },
      opts.timeoutMs,
    );
    this.opts.negotiation?.remember?.(info.era, info.protocolVersion);
    return info;
  }

  private adopt({ info, modern, listener }: Established): void {
    this.modern = modern;
    this.listener = listener;
    this.protocolVersion = info.protocolVersion;
    this.capabilities = info.capabilities;
    this.serverInfo = info.serverInfo;
    this.instructions = info.instructions;
    this.initialized = true;
  }

  /** `tools/list`, every page (server/tools#listing-tools). Entries without a name are dropped. */
  listTools(opts?: RequestOptions): Promise<McpTool[]> {
    const listing = this.paginate("tools/list", "tools", (t) => typeof t.name === "string", opts) as Promise<McpTool[]>;
    // The 2025 path stays one promise: callers racing lists see its failure as soon as before.
    if (!this.modern || !this.transport.setToolHeaders) return listing;
    return listing.then(async (tools) => {
      const { withHeaderRules } = await import("./tool-headers.ts");
      return withHeaderRules(tools, this.transport, (line) => this.opts.warn?.(`${this.peer}: ${line}`));
    });
  }

  /** `prompts/list`, every page (server/prompts#listing-prompts). */
  listPrompts(opts?: RequestOptions): Promise<McpPrompt[]> {
    return this.paginate("prompts/list", "prompts", (p) => typeof p.name === "string", opts) as Promise<McpPrompt[]>;
  }

  /** `resources/list`, every page (server/resources#listing-resources). */
  listResources(opts?: RequestOptions): Promise<McpResource[]> {
    return this.paginate("resources/list", "resources", (r) => typeof r.uri === "string", opts) as Promise<McpResource[]>;
  }

  /** `skills/list`, every page (SEP-2640, Enumeration via skills/list); only for servers that declared the extension. */
  listSkills(opts?: RequestOptions): Promise<unknown[]> {
    return this.paginate("skills/list", "skills", (s) => typeof s.uri === "string", opts);
  }

  /** `resources/templates/list`, every page (server/resources#resource-templates). */
  listResourceTemplates(opts?: RequestOptions): Promise<McpResourceTemplate[]> {
    return this.paginate("resources/templates/list", "resourceTemplates", (t) => typeof t.uriTemplate === "string", opts) as Promise<McpResourceTemplate[]>;
  }

  /**
   * `completion/complete` (server/utilities/completion): values for an argument of a prompt or a
   * variable of a resource template. Only for servers that declared `completions`. Throws like `callTool`.
   */
  complete(request: CompleteRequest, opts?: RequestOptions): Promise<CompleteResult> {
    return this.request("completion/complete", { ...request }, opts);
  }

  /**
   * `tools/call` with the server's own tool name. Resolves with the raw result, `isError` included.
   * @throws McpError, RequestTimeoutError, RequestCancelledError or ConnectionClosedError.
   */
  callTool(name: string, args: Record<string, unknown>, opts?: RequestOptions): Promise<CallToolResult> {
    return this.request("tools/call", { name, arguments: args }, opts);
  }

  /** `prompts/get` with string arguments (server/prompts#getting-a-prompt). Throws like `callTool`. */
  getPrompt(name: string, args: Record<string, string>, opts?: RequestOptions): Promise<GetPromptResult> {
    return this.request("prompts/get", { name, arguments: args }, opts);
  }

  /** `resources/read` (server/resources#reading-resources). Throws like `callTool`. */
  readResource(uri: string, opts?: RequestOptions): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, opts);
  }

  /** `skills/get` (SEP-2640, Retrieval via skills/get): one skill's entry by its SKILL.md URI, listed or not. Throws like `callTool` (-32602: not a skill). */
  getSkill(uri: string, opts?: RequestOptions): Promise<unknown> {
    return this.request("skills/get", { uri }, opts);
  }

  /** Any request after the handshake, for features kept in their own modules (tasks/…). Throws like `callTool`. */
  sendRequest<T = unknown>(method: string, params: Params, opts?: RequestOptions): Promise<T> {
    return this.request<T>(method, params, opts);
  }

  /**
   * Answers a 2026-07-28 task's `inputRequests` (SEP-2663 §Task Update Requests) with the same handlers
   * and consent rules as any server request; undefined when none. @throws Error outside a 2026-07-28 session.
   */
  answerInputRequests(requests: unknown, signal?: AbortSignal): Promise<Record<string, unknown> | undefined> {
    if (!this.modern) return Promise.reject(new Error(`${this.peer}: input requests outside a 2026-07-28 session`));
    return this.modern.fulfil("tasks/get", requests, signal);
  }

  /** A clock that stands still while we serve this server's requests (see `JsonRpcConnection.startClock`). */
  startClock(ms: number, expire: () => void): () => void {
    return this.conn.startClock(ms, expire);
  }

  /** Hears every notification `method` not handled here (`notifications/tasks/status`); returns the unsubscribe. */
  listen(method: string, fn: (params: Params) => void): () => void {
    const set = this.listeners.get(method) ?? new Set();
    this.listeners.set(method, set.add(fn));
    return () => set.delete(fn);
  }

  /** Ends the session: pending requests reject, then the transport's shutdown sequence runs. */
  async close(graceMs?: number): Promise<void> {
    this.listener?.stop();
    this.conn.close(new ConnectionClosedError(`${this.peer} was shut down`, true));
    await this.transport.close(graceMs);
  }

  /**
   * Why the transport ended, once it has, in its own words: "exited with code 1", "closed its
   * output". A transport whose messages ended without its `closed` settling within 1 s (a bug)
   * still gets an answer, "closed its output", so no waiter hangs on it.
   */
  async endReason(): Promise<string> {
    const closed = this.transport.closed.then((c) => c.reason);
    if (!this.conn.isClosed || (await settlesWithin(closed, TRANSPORT_CLOSED_WAIT_MS))) return closed;
    return "closed its output";
  }

  private request<T>(method: string, params: Params, opts?: RequestOptions): Promise<T> {
    if (!this.initialized) return Promise.reject(new Error(`${this.peer}: ${method} before the handshake`));
    if (this.modern) return this.modern.request<T>(method, params, opts);
    return this.conn.request<T>(method, params, opts);
  }

  /** Follows `nextCursor` to the end (pagination.ts). */
  private paginate(method: string, key: string, valid: (item: Record<string, unknown>) => boolean, opts?: RequestOptions): Promise<unknown[]> {
    return paginate((params) => this.request<unknown>(method, params, opts), { peer: this.peer, method, key, valid, warn: this.opts.warn });
  }

  private onNotification(method: string, params: Params): void {
    const changed = /^notifications\/(tools|prompts|resources)\/list_changed$/.exec(method);
    if (changed) {
      const kind = changed[1] as ListKind;
      this.modern?.invalidate(kind);
      this.listener?.heard();
      this.dirty.add(kind);
      this.opts.onListChanged?.(kind);
    } else if (method === "notifications/elicitation/complete" && typeof params?.elicitationId === "string") {
      this.opts.features.elicitation?.onComplete?.(this.name, params.elicitationId);
    } else if (method === "notifications/subscriptions/acknowledged") {
      this.listener?.heard();
      this.opts.log?.(`${this.peer}: subscriptions/listen acknowledged ${JSON.stringify(params?.notifications ?? {})}`);
    } else if (method === "notifications/message") {
      const data = params?.data;
      const text = typeof data === "string" ? data : JSON.stringify(data);
      this.opts.log?.(`[${this.name}] ${String(params?.level ?? "info")}: ${text}`);
    } else if (!this.notifyListeners(method, params)) {
      this.opts.log?.(`${this.peer}: notification ${method} ignored`);
    }
  }

  /** Hands `params` to every `listen`er of `method`; false when there is none. */
  private notifyListeners(method: string, params: Params): boolean {
    const set = this.listeners.get(method);
    for (const fn of set ?? []) fn(params);
    return (set?.size ?? 0) > 0;
  }
}
