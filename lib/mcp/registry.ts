/**
 * All MCP sessions of a run: started concurrently, each with a status; read through snapshots;
 * tools, prompts and resources on request; one shutdown for all. Knows nothing of the agent:
 * lib/agent/mcp turns what it lists into the agent's tools, commands and attachments.
 */
import { McpClient } from "./client.ts";
import type { ServerConfig } from "./config.ts";
import { McpError, messageOf } from "./errors.ts";
import { type ClientFeatures, workingDirectoryRoots } from "./features.ts";
import {
  ErrorCode,
  type CallToolResult,
  type GetPromptResult,
  type Implementation,
  type ListKind,
  type McpPrompt,
  type McpResource,
  type McpTool,
  type ReadResourceResult,
  type ServerCapabilities,
} from "./protocol.ts";
import type { RequestOptions } from "./jsonrpc.ts";
import { openTransport } from "./transports/factory.ts";

/** Default for MCP_TIMEOUT: handshake and each list request at start-up, in ms. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
/** Default for MCP_TOOL_TIMEOUT: one tools/call (also prompts/get, resources/read), in ms. */
export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;

/**
 * `MCP_TIMEOUT` and `MCP_TOOL_TIMEOUT` (ms, Claude Code's variables) as registry options; an unset
 * or unusable value gives the default.
 */
export function timeoutsFromEnv(env: Record<string, string | undefined> = process.env): { startupTimeoutMs: number; toolTimeoutMs: number } {
  const ms = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return { startupTimeoutMs: ms("MCP_TIMEOUT", DEFAULT_STARTUP_TIMEOUT_MS), toolTimeoutMs: ms("MCP_TOOL_TIMEOUT", DEFAULT_TOOL_TIMEOUT_MS) };
}

export interface RegistryOptions {
  /** Working directory for the servers. */
  cwd: string;
  /** What every server is offered (client/roots, client/sampling); default: the working directory as the one root. */
  features?: ClientFeatures;
  startupTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** One line for stderr: failures always; diagnostics and server stderr when `verbose`. */
  log: (line: string) => void;
  verbose?: boolean;
  /** Also log every JSON-RPC message in and out. */
  debug?: boolean;
  /** Shutdown grace before SIGTERM, in ms (see `StdioTransport.close`). */
  graceMs?: number;
  /** Told as each server finishes starting, connected or failed (a live start-up status). */
  onServerSettled?: (server: ServerSnapshot) => void;
  /** Told when a server failed to start or, once connected, ended; the snapshot has the reason and stderr tail. */
  onServerFailed?: (server: ServerSnapshot, phase: "start" | "exit") => void;
  /** Every stderr line of a process server, as it arrives (asked for under --verbose). */
  onStderrLine?: (server: string, line: string) => void;
  /** Every JSON-RPC message in and out (asked for under --debug). */
  onTrace?: (server: string, direction: "send" | "receive", message: string) => void;
  /** Told when a server announces a changed list; `refresh()` then re-lists it. */
  onListChanged?: (server: string, kind: ListKind) => void;
}

/** One server as the rest of the program reads it: a frozen copy, never the registry's own state. */
export type ServerSnapshot = Readonly<ServerState>;

interface ServerState {
  name: string;
  /** "failed" when it could not start, or when it exited after starting. */
  status: "connected" | "failed";
  /** Why it failed, e.g. "exited with code 1 before the handshake". */
  error?: string;
  config: ServerConfig;
  protocolVersion?: string;
  capabilities?: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
  tools: readonly McpTool[];
  prompts: readonly McpPrompt[];
  resources: readonly McpResource[];
  /** Last stderr lines, kept when the server failed. */
  stderr: readonly string[];
  /** Process id of the server (leader of its process group), once spawned. */
  pid?: number;
}

export class McpRegistry {
  /** One entry per configured server, in configuration order. */
  private readonly servers: ServerState[] = [];
  /** Connected sessions by server name. */
  private readonly clients = new Map<string, McpClient>();
  /** Every session spawned, connected or still starting: what shutdown closes. */
  private readonly spawned = new Set<McpClient>();
  /** Bumped whenever a list or a status changes, so readers can cache what they built from snapshots. */
  private changes = 0;
  private shuttingDown: Promise<void> | undefined;
  private readonly reports = new Set<Promise<void>>();
  private readonly startupTimeoutMs: number;
  private readonly toolTimeoutMs: number;
  private readonly features: ClientFeatures;

  private constructor(private readonly opts: RegistryOptions) {
    this.startupTimeoutMs = opts.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
    this.toolTimeoutMs = opts.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.features = opts.features ?? { roots: workingDirectoryRoots(opts.cwd) };
  }

  /**
   * A registry with no servers yet. Register `shutdown` on the exit paths, then await `connect`:
   * a signal during start-up then still closes the servers gracefully.
   */
  static open(opts: RegistryOptions): McpRegistry {
    return new McpRegistry(opts);
  }

  /** `open` then `connect`, for callers with no exit path to guard during start-up. */
  static async start(configs: ServerConfig[], opts: RegistryOptions): Promise<McpRegistry> {
    const registry = McpRegistry.open(opts);
    await registry.connect(configs);
    return registry;
  }

  /**
   * Starts every server concurrently: handshake, tools/list, and prompts/list and resources/list
   * when declared (basic/lifecycle#capability-negotiation). Each server is spawned before this
   * returns its promise. Never throws for a server: a failure gets status "failed", one line
   * through `opts.log`, and its process is shut down. `configs` have unique names (config.ts).
   */
  async connect(configs: ServerConfig[]): Promise<void> {
    const starting: Promise<void>[] = [];
    for (const config of configs) {
      const state: ServerState = { name: config.name, status: "failed", config, tools: [], prompts: [], resources: [], stderr: [] };
      this.servers.push(state);
      starting.push(this.startOne(state));
    }
    await Promise.all(starting);
  }

  /** Every configured server, in configuration order, as frozen snapshots. */
  snapshot(): ServerSnapshot[] {
    return this.servers.map((s) => Object.freeze({ ...s }));
  }

  /** One server's snapshot, or undefined when none has that name. */
  server(name: string): ServerSnapshot | undefined {
    const state = this.servers.find((s) => s.name === name);
    return state && Object.freeze({ ...state });
  }

  /** Grows whenever a status or a list changed: a reader caches what it built until this moves. */
  get version(): number {
    return this.changes;
  }

  /** True when the named server finished its handshake and is still running. */
  isConnected(name: string): boolean {
    return this.clients.get(name)?.connected ?? false;
  }

  /**
   * Re-lists what servers announced as changed (`notifications/<kind>/list_changed`). Call it
   * before each model call: without announcements it does nothing. Failures keep the old list.
   */
  async refresh(): Promise<void> {
    const work: Promise<void>[] = [];
    for (const state of this.servers) {
      const client = this.clients.get(state.name);
      if (client?.connected && client.dirty.size > 0) work.push(this.list(client, state, [...client.dirty], false));
    }
    if (work.length === 0) return;
    await Promise.all(work);
    this.changes++;
  }

  /**
   * The server's prompts as a user asking for them expects: the start-up list when it declared
   * `prompts` (kept fresh by list_changed), else asked now through `listPrompts`. Rejects like `getPrompt`.
   */
  async prompts(server: string): Promise<readonly McpPrompt[]> {
    const state = this.servers.find((s) => s.name === server);
    if (state?.status === "connected" && state.capabilities?.prompts) return state.prompts;
    return this.listPrompts(server);
  }

  /** `prompts/list`, asked even when the server did not declare prompts; -32601 → []. Rejects like `getPrompt`. */
  async listPrompts(server: string): Promise<McpPrompt[]> {
    return orNone(this.client(server).listPrompts({ timeoutMs: this.startupTimeoutMs }));
  }

  /** `resources/list`, asked even when not declared; -32601 → []. Rejects like `getPrompt`. */
  async listResources(server: string): Promise<McpResource[]> {
    return orNone(this.client(server).listResources({ timeoutMs: this.startupTimeoutMs }));
  }

  /** `prompts/get`. Rejects with Error for an unknown or disconnected server, McpError from the server. */
  async getPrompt(server: string, name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.client(server).getPrompt(name, args, { timeoutMs: this.toolTimeoutMs });
  }

  /** `resources/read`. Rejects like `getPrompt`. */
  async readResource(server: string, uri: string): Promise<ReadResourceResult> {
    return this.client(server).readResource(uri, { timeoutMs: this.toolTimeoutMs });
  }

  /**
   * `tools/call` with the server's own tool name, returning the raw result (`isError` included),
   * bounded by MCP_TOOL_TIMEOUT unless `opts` says otherwise. Rejects like `getPrompt`, and with
   * RequestTimeoutError, RequestCancelledError or ConnectionClosedError (errors.ts).
   */
  async callTool(server: string, tool: string, args: Record<string, unknown>, opts: RequestOptions = {}): Promise<CallToolResult> {
    return this.client(server).callTool(tool, args, { timeoutMs: this.toolTimeoutMs, ...opts });
  }

  /** Shuts every server down concurrently (see `StdioTransport.close`). Idempotent; never throws. */
  shutdown(): Promise<void> {
    // Servers still starting are closed too; reports of servers that died before shutdown began are finished, not cut off.
    this.shuttingDown ??= Promise.all([...[...this.spawned].map((c) => c.close(this.opts.graceMs)), ...this.reports]).then(() => {});
    return this.shuttingDown;
  }

  private async startOne(state: ServerState): Promise<void> {
    const { log, verbose, debug, onStderrLine, onTrace } = this.opts;
    const name = state.name;
    let client: McpClient | undefined;
    try {
      // A stdio server is spawned synchronously here, before the first wait.
      const opening = openTransport(state.config, {
        cwd: this.opts.cwd,
        onStderrLine: onStderrLine && ((line) => onStderrLine(name, line)),
        log: verbose ? log : undefined,
        verbose,
        debug,
      });
      const transport = await opening;
      client = new McpClient(name, transport, {
        features: this.features,
        log: verbose ? log : undefined,
        warn: log,
        trace: onTrace && ((dir, message) => onTrace(name, dir, message)),
        onListChanged: this.opts.onListChanged && ((kind) => this.opts.onListChanged!(name, kind)),
      });
      this.spawned.add(client);
      state.pid = client.diagnostics().pid;
      if (this.shuttingDown) throw new Error("shut down during start-up");
      const init = await client.connect({ timeoutMs: this.startupTimeoutMs });
      Object.assign(state, init);
      const kinds: ListKind[] = ["tools", "prompts", "resources"];
      await this.list(
        client,
        state,
        kinds.filter((k) => init.capabilities[k]),
        true,
      );
      if (this.shuttingDown) throw new Error("shut down during start-up");
      state.status = "connected";
      this.changes++;
      this.clients.set(name, client);
      this.watch(client, state);
    } catch (error) {
      state.status = "failed";
      // The line below names the server already; errors from the connection name it too.
      state.error = messageOf(error).replace(`MCP server "${name}": `, "");
      // Closed first: the stderr tail is complete only once the process is gone.
      await client?.close(this.opts.graceMs);
      state.stderr = client?.diagnostics().stderrTail ?? [];
      // A start cut short by our own shutdown (a signal) is not the server's failure.
      if (!this.shuttingDown) this.opts.onServerFailed?.(Object.freeze({ ...state }), "start");
    }
    // A start cut short by our shutdown is not a server's outcome to count.
    if (!this.shuttingDown) this.opts.onServerSettled?.(Object.freeze({ ...state }));
  }

  /**
   * Lists `kinds` into `state`, clearing each dirty flag first so an announcement that arrives
   * meanwhile is not lost. At start-up (`strict`) a failed tools/list fails the server; otherwise
   * a failure is a warning and the old list stays.
   */
  private async list(client: McpClient, state: ServerState, kinds: ListKind[], strict: boolean): Promise<void> {
    const opts = { timeoutMs: this.startupTimeoutMs };
    const listers = { tools: () => client.listTools(opts), prompts: () => client.listPrompts(opts), resources: () => client.listResources(opts) };
    await Promise.all(
      kinds.map(async (kind) => {
        client.dirty.delete(kind);
        if (!state.capabilities?.[kind]) return;
        try {
          (state[kind] as readonly unknown[]) = Object.freeze(await orNone<unknown>(listers[kind]()));
        } catch (error) {
          if (strict && kind === "tools") throw error;
          this.opts.log(`MCP server "${state.name}": ${kind}/list failed: ${messageOf(error)}`);
        }
      }),
    );
  }

  /** A server that dies mid-run becomes "failed", its group is shut down, and one line reports its exit and stderr. */
  private watch(client: McpClient, state: ServerState): void {
    void client.closed.then(() => {
      if (this.shuttingDown) return; // closed by our own shutdown: nothing to report
      state.status = "failed";
      this.changes++;
      const report = (async () => {
        state.error = await client.endReason();
        await client.close(this.opts.graceMs);
        state.stderr = client.diagnostics().stderrTail ?? [];
        this.opts.onServerFailed?.(Object.freeze({ ...state }), "exit");
      })();
      this.reports.add(report);
    });
  }

  private client(server: string): McpClient {
    const client = this.clients.get(server);
    if (client?.connected) return client;
    const state = this.servers.find((s) => s.name === server);
    if (!state) throw new Error(`no MCP server named "${server}"`);
    throw new Error(`MCP server "${server}" is not connected${state.error ? ` (${state.error})` : ""}`);
  }
}

/** -32601 from an optional list means "none" (basic/lifecycle#capability-negotiation). */
async function orNone<T>(listing: Promise<T[]>): Promise<T[]> {
  try {
    return await listing;
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
    throw error;
  }
}
