/**
 * All MCP sessions of a run: started concurrently, each with a status; their tools exposed as
 * ordinary `Tool`s (named by `ToolNamer`, routed by a table, never by splitting names); prompts
 * and resources on request; one shutdown for all.
 */
import type { Tool } from "../tools/tool.ts";
import { McpClient } from "./client.ts";
import type { ServerConfig } from "./config.ts";
import { McpError, messageOf } from "./errors.ts";
import { type ClientFeatures, workingDirectoryRoots } from "./features.ts";
import { ToolNamer } from "./names.ts";
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
import { openTransport } from "./transports/factory.ts";
import { RESTART_LIMIT, RestartBudget } from "./restarts.ts";
import { toolAllowed, unmatchedFilters } from "./server-options.ts";
import type { ToolContext, ToolOutput } from "../tools/tool.ts";
import { type ToolRoute, adaptTools, callAsTool } from "../agent/mcp/tools.ts";

export type { ToolRoute } from "../agent/mcp/tools.ts";

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
  /** Limit for a tool result's text, in characters; content.ts's default when absent. */
  maxOutputChars?: number;
  /** Told as each server finishes starting, connected or failed (a live start-up status). */
  onServerSettled?: (state: ServerState) => void;
  /** Told when a server announces a changed list; `refresh()` then re-lists it. */
  onListChanged?: (server: string, kind: ListKind) => void;
}

export interface ServerState {
  name: string;
  /**
   * "failed" when it could not start, or when it exited after starting; "disabled" when it was
   * not started: `"disabled": true` in its entry, or a project server the user did not approve.
   */
  status: "connected" | "failed" | "disabled";
  /** Why it failed, e.g. "exited with code 1 before the handshake"; why it is disabled ("not approved", "disabled in config"). */
  error?: string;
  config: ServerConfig;
  protocolVersion?: string;
  capabilities?: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
  tools: McpTool[];
  prompts: McpPrompt[];
  resources: McpResource[];
  /** Last stderr lines, kept when the server failed. */
  stderr: string[];
  /** Process id of the server (leader of its process group), once spawned. */
  pid?: number;
  /** When it was last started or probed (ms since the epoch): remote servers are probed again at most once a minute. */
  probedAt?: number;
}

/** How long a failed remote server is left alone before the next model call probes it again, in ms. */
export const REPROBE_INTERVAL_MS = 60_000;

export class McpRegistry {
  /** One entry per configured server, in configuration order. */
  readonly servers: ServerState[] = [];
  /** Connected sessions by server name. */
  private readonly clients = new Map<string, McpClient>();
  /** Every session spawned, connected or still starting: what shutdown closes. */
  private readonly spawned = new Set<McpClient>();
  private readonly namer = new ToolNamer();
  private readonly warned = new Set<string>();
  private toolCache: Tool[] | undefined;
  private shuttingDown: Promise<void> | undefined;
  private readonly reports = new Set<Promise<void>>();
  private readonly startupTimeoutMs: number;
  private readonly toolTimeoutMs: number;
  private readonly features: ClientFeatures;
  /** Restarts of stdio servers that died after start-up, by server (restarts.ts). */
  private readonly budgets = new Map<string, RestartBudget>();
  /** A restart or reconnect under way, by server: calls wait for it. */
  private readonly restarting = new Map<string, Promise<void>>();
  /** The report of a server's death, by server: a restart waits until the old process is gone. */
  private readonly endings = new Map<string, Promise<void>>();

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
   * A config with `disabled`, or named in `notApproved`, is listed as "disabled" and not started.
   */
  async connect(configs: ServerConfig[], notApproved: ReadonlySet<string> = new Set()): Promise<void> {
    const starting: Promise<void>[] = [];
    for (const config of configs) {
      const state: ServerState = { name: config.name, status: "failed", config, tools: [], prompts: [], resources: [], stderr: [] };
      this.servers.push(state);
      if (config.disabled || notApproved.has(config.name)) {
        Object.assign(state, { status: "disabled", error: config.disabled ? "disabled in config" : "not approved" });
        continue;
      }
      starting.push(this.startOne(state));
    }
    await Promise.all(starting);
  }

  /**
   * Closes the server's session if it has one and starts it again: handshake and lists afresh, so
   * the model's next call sees its new tools. Resolves with its new state, connected or failed
   * (failures are logged as at start-up). A disabled server stays disabled.
   * @throws Error for an unknown server name.
   */
  async reconnect(name: string): Promise<ServerState> {
    const state = this.servers.find((s) => s.name === name);
    if (!state) throw new Error(`no MCP server named "${name}"`);
    if (state.status === "disabled") return state;
    const pending = this.restarting.get(name);
    if (pending) {
      await pending;
      return state;
    }
    const work = this.restart(state);
    this.restarting.set(name, work);
    try {
      await work;
    } finally {
      this.restarting.delete(name);
    }
    return state;
  }

  /** True when the named server finished its handshake and is still running. */
  isConnected(name: string): boolean {
    return this.clients.get(name)?.connected ?? false;
  }

  /**
   * The MCP tools as `Tool`s (see `adaptTools`), rebuilt only after `refresh` changed a list.
   * Tools of a server that died stay listed and answer that it is not connected.
   */
  tools(): Tool[] {
    this.toolCache ??= adaptTools(
      this.servers,
      this.namer,
      (route, input, ctx) => this.runTool(route, input, ctx),
      (line) => this.warnOnce(line),
    );
    return this.toolCache;
  }

  /**
   * One MCP tool call for the model. A stdio server found dead is restarted in the background
   * (at most 3 times in 5 minutes) while this call gets an error result saying so; a call that
   * comes while a restart is under way waits for it.
   */
  private async runTool(route: ToolRoute, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
    const state = this.servers.find((s) => s.name === route.server);
    // Awaited only when there is one: otherwise the request goes out in this same tick.
    const pending = this.restarting.get(route.server);
    if (pending) await pending;
    const client = this.clients.get(route.server);
    if (state && client && !client.connected && state.config.type === "stdio" && !this.shuttingDown) {
      // watch() saw the end first (its callback was registered first): its report says why.
      await client.closed;
      await this.endings.get(state.name);
      const why = state.error ?? "exited";
      const number = this.budget(state.name).take();
      if (!number) {
        // Spent: the server stays failed, reported once with its last stderr.
        this.clients.delete(state.name);
        state.error = `kept exiting (restarted ${RESTART_LIMIT} times in 5 minutes; last: ${why})`;
        this.opts.log(`MCP server "${state.name}" ${state.error}; not restarted again${stderrSuffix(state.stderr)}`);
        return { isError: true, content: `MCP server "${state.name}" is not connected: it ${state.error}` };
      }
      this.opts.log(`MCP server "${state.name}" ${why}; restarting it (restart ${number} of at most ${RESTART_LIMIT} in 5 minutes)`);
      void this.reconnect(state.name);
      return { isError: true, content: `MCP server "${state.name}" had ${why}; it is being restarted: call the tool again` };
    }
    return callAsTool(client, route, input, ctx, { timeoutMs: this.toolTimeoutFor(route.server), maxOutputChars: this.opts.maxOutputChars });
  }

  /** The server and MCP tool behind an API tool name given out by `tools()` (the namer's table). */
  route(toolName: string): ToolRoute | undefined {
    return this.namer.lookup(toolName);
  }

  /**
   * Re-lists what servers announced as changed (`notifications/<kind>/list_changed`). Call it
   * before each model call: without announcements it does nothing. Failures keep the old list.
   */
  async refresh(): Promise<void> {
    const work: Promise<void>[] = [];
    const now = Date.now();
    for (const state of this.servers) {
      // A remote server that failed may be back: probed again, at most once a minute.
      if (state.status === "failed" && isRemote(state.config) && now - (state.probedAt ?? 0) >= REPROBE_INTERVAL_MS && !this.shuttingDown) {
        work.push(this.reconnect(state.name).then(() => {}));
        continue;
      }
      const client = this.clients.get(state.name);
      if (client?.connected && client.dirty.size > 0) work.push(this.list(client, state, [...client.dirty], false));
    }
    if (work.length === 0) return;
    await Promise.all(work);
    this.toolCache = undefined;
  }

  /**
   * The server's prompts as a user asking for them expects: the start-up list when it declared
   * `prompts` (kept fresh by list_changed), else asked now through `listPrompts`. Rejects like `getPrompt`.
   */
  async prompts(server: string): Promise<McpPrompt[]> {
    const state = this.servers.find((s) => s.name === server);
    if (state?.status === "connected" && state.capabilities?.prompts) return state.prompts;
    return this.listPrompts(server);
  }

  /** `prompts/list`, asked even when the server did not declare prompts; -32601 → []. Rejects like `getPrompt`. */
  async listPrompts(server: string): Promise<McpPrompt[]> {
    return orNone(this.client(server).listPrompts({ timeoutMs: this.startupTimeoutFor(server) }));
  }

  /** `resources/list`, asked even when not declared; -32601 → []. Rejects like `getPrompt`. */
  async listResources(server: string): Promise<McpResource[]> {
    return orNone(this.client(server).listResources({ timeoutMs: this.startupTimeoutFor(server) }));
  }

  /** `prompts/get`. Rejects with Error for an unknown or disconnected server, McpError from the server. */
  async getPrompt(server: string, name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.client(server).getPrompt(name, args, { timeoutMs: this.toolTimeoutFor(server) });
  }

  /** `resources/read`. Rejects like `getPrompt`. */
  async readResource(server: string, uri: string): Promise<ReadResourceResult> {
    return this.client(server).readResource(uri, { timeoutMs: this.toolTimeoutFor(server) });
  }

  /** `tools/call` returning the raw result (for the inspector). Rejects like `getPrompt`. */
  async callTool(server: string, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return this.client(server).callTool(tool, args, { timeoutMs: this.toolTimeoutFor(server) });
  }

  /** Shuts every server down concurrently (see `StdioTransport.close`). Idempotent; never throws. */
  shutdown(): Promise<void> {
    // Servers still starting are closed too; reports of servers that died before shutdown began are finished, not cut off.
    this.shuttingDown ??= Promise.all([...[...this.spawned].map((c) => c.close(this.opts.graceMs)), ...this.reports]).then(() => {});
    return this.shuttingDown;
  }

  private budget(name: string): RestartBudget {
    let budget = this.budgets.get(name);
    if (!budget) this.budgets.set(name, (budget = new RestartBudget()));
    return budget;
  }

  private startupTimeoutFor(server: string): number {
    return this.servers.find((s) => s.name === server)?.config.timeoutMs ?? this.startupTimeoutMs;
  }

  private toolTimeoutFor(server: string): number {
    return this.servers.find((s) => s.name === server)?.config.toolTimeoutMs ?? this.toolTimeoutMs;
  }

  /** The old session closed (its death report finished), the state emptied, and a fresh start. */
  private async restart(state: ServerState): Promise<void> {
    const old = this.clients.get(state.name);
    this.clients.delete(state.name); // first, so its closing is not reported as a death
    if (old) {
      await old.close(this.opts.graceMs);
      this.spawned.delete(old);
    }
    await this.endings.get(state.name);
    for (const key of ["error", "protocolVersion", "capabilities", "serverInfo", "instructions", "pid"] as const) delete state[key];
    Object.assign(state, { status: "failed", tools: [], prompts: [], resources: [], stderr: [] });
    await this.startOne(state);
    this.toolCache = undefined;
  }

  private async startOne(state: ServerState): Promise<void> {
    const { log, verbose, debug } = this.opts;
    const name = state.name;
    let client: McpClient | undefined;
    try {
      // A stdio server is spawned synchronously here, before the first wait.
      const opening = openTransport(state.config, {
        cwd: this.opts.cwd,
        onStderrLine: verbose ? (line) => log(`[${name}] ${line}`) : undefined,
        log: verbose ? log : undefined,
        verbose,
        debug,
      });
      const transport = await opening;
      client = new McpClient(name, transport, {
        features: this.features,
        log: verbose ? log : undefined,
        warn: log,
        trace: debug ? (dir, message) => log(`[${name}] ${dir === "send" ? "→" : "←"} ${message.slice(0, 2000)}`) : undefined,
        onListChanged: this.opts.onListChanged && ((kind) => this.opts.onListChanged!(name, kind)),
      });
      this.spawned.add(client);
      state.pid = client.diagnostics().pid;
      if (this.shuttingDown) throw new Error("shut down during start-up");
      state.probedAt = Date.now();
      const init = await client.connect({ timeoutMs: state.config.timeoutMs ?? this.startupTimeoutMs });
      Object.assign(state, init);
      const kinds: ListKind[] = ["tools", "prompts", "resources"];
      try {
        await this.list(
          client,
          state,
          kinds.filter((k) => init.capabilities[k]),
          true,
        );
      } catch (error) {
        throw new HandshakeError(`tools/list ${error instanceof McpError ? `answered ${error.code} ${error.message}` : messageOf(error)}`);
      }
      if (this.shuttingDown) throw new Error("shut down during start-up");
      state.status = "connected";
      this.clients.set(name, client);
      this.watch(client, state);
    } catch (error) {
      state.status = "failed";
      // The line below names the server already; errors from the connection name it too.
      state.error = messageOf(error).replace(`MCP server "${name}": `, "");
      // Closed first: the stderr tail is complete only once the process is gone.
      await client?.close(this.opts.graceMs);
      state.stderr = client?.diagnostics().stderrTail ?? [];
      // initialize worked but a list did not: what arrived (capabilities, instructions) stays to be shown.
      if (error instanceof HandshakeError) state.error = `failed the handshake: ${state.error}`;
      const what = error instanceof HandshakeError ? "" : "failed to start: ";
      // A start cut short by our own shutdown (a signal) is not the server's failure.
      if (!this.shuttingDown) log(`MCP server "${name}" ${what}${state.error}${stderrSuffix(state.stderr)}`);
    }
    // A start cut short by our shutdown is not a server's outcome to count.
    if (!this.shuttingDown) this.opts.onServerSettled?.(state);
  }

  /**
   * Lists `kinds` into `state`, clearing each dirty flag first so an announcement that arrives
   * meanwhile is not lost. At start-up (`strict`) a failed tools/list fails the server; otherwise
   * a failure is a warning and the old list stays.
   */
  private async list(client: McpClient, state: ServerState, kinds: ListKind[], strict: boolean): Promise<void> {
    const opts = { timeoutMs: state.config.timeoutMs ?? this.startupTimeoutMs };
    const listers = { tools: () => client.listTools(opts), prompts: () => client.listPrompts(opts), resources: () => client.listResources(opts) };
    await Promise.all(
      kinds.map(async (kind) => {
        client.dirty.delete(kind);
        if (!state.capabilities?.[kind]) return;
        try {
          const listed = await orNone<unknown>(listers[kind]());
          (state[kind] as unknown[]) = kind === "tools" ? this.filterTools(state, listed as McpTool[]) : listed;
        } catch (error) {
          if (strict && kind === "tools") throw error;
          this.opts.log(`MCP server "${state.name}": ${kind}/list failed: ${messageOf(error)}`);
        }
      }),
    );
  }

  /** `includeTools`/`excludeTools` of the entry applied; a filter name that matches no tool is one warning. */
  private filterTools(state: ServerState, tools: McpTool[]): McpTool[] {
    const names = tools.map((t) => t.name);
    for (const { key, names: missing } of unmatchedFilters(state.config, names)) {
      this.warnOnce(`MCP server "${state.name}": ${key} names no tool of the server: ${missing.join(", ")}`);
    }
    return tools.filter((t) => toolAllowed(state.config, t.name));
  }

  /** A server that dies mid-run becomes "failed", its group is shut down, and one line reports its exit and stderr. */
  private watch(client: McpClient, state: ServerState): void {
    void client.closed.then(() => {
      // Closed by our own shutdown, or replaced by a reconnect: nothing to report.
      if (this.shuttingDown || this.clients.get(state.name) !== client) return;
      state.status = "failed";
      const report = (async () => {
        state.error = await client.endReason();
        await client.close(this.opts.graceMs);
        state.stderr = client.diagnostics().stderrTail ?? [];
        this.opts.log(`MCP server "${state.name}" ${state.error}${stderrSuffix(state.stderr)}`);
      })();
      this.reports.add(report);
      this.endings.set(state.name, report);
    });
  }

  private client(server: string): McpClient {
    const client = this.clients.get(server);
    if (client?.connected) return client;
    const state = this.servers.find((s) => s.name === server);
    if (!state) throw new Error(`no MCP server named "${server}"`);
    throw new Error(`MCP server "${server}" is not connected${state.error ? ` (${state.error})` : ""}`);
  }

  private warnOnce(line: string): void {
    if (this.warned.has(line)) return;
    this.warned.add(line);
    this.opts.log(line);
  }
}

/**
 * " (stderr: …)" for a one-line report, "" when silent: the last three lines, led by the last line
 * that names an error when the tail does not (runtimes print a stack and a version after it).
 */
export function stderrSuffix(lines: string[]): string {
  const tail = lines.slice(-3);
  const named = lines.findLast((l) => /\b(error|ERR!|fatal|exception|cannot|not found)\b/i.test(l));
  if (named !== undefined && !tail.includes(named)) tail.splice(0, tail.length - 2, named);
  const text = tail.join(" | ");
  return text ? ` (stderr: ${text.length > 500 ? `${text.slice(0, 500)}…` : text})` : "";
}

/** A list request after a good `initialize` failed: the server is reported as failing the handshake, not the start. */
class HandshakeError extends Error {}

/** Transports other than stdio reach a server that lives on without us: it may come back. */
function isRemote(config: ServerConfig): boolean {
  return (config.type as string) !== "stdio";
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
