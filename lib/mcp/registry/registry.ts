/**
 * All MCP sessions of a run: started concurrently, each with a status; read through snapshots;
 * tools, prompts and resources on request; one shutdown for all. Knows nothing of the agent:
 * lib/agent/mcp turns what it lists into the agent's tools, commands and attachments.
 */
import type { ServerConfig } from "../config/load.ts";
import type { CallToolResult, CompleteRequest, CompleteResult, GetPromptResult, McpPrompt, McpResource, ReadResourceResult } from "../protocol/protocol.ts";
import type { RequestOptions } from "../session/jsonrpc.ts";
import { REPROBE_INTERVAL_MS, type RegistryOptions, type ServerSnapshot, type ServerState } from "./snapshot.ts";
import { orNone } from "./session-start.ts";
import { callTool, type ToolCallOptions } from "../tasks/call.ts";
import type { TaskPeer } from "../tasks/peer.ts";
import { DEFAULT_CANCEL_BUDGET_MS } from "../tasks/running.ts";
import { RegistryCore } from "./core.ts";

export type { FailurePhase, RegistryOptions, ServerSnapshot } from "./snapshot.ts";
export { RESTART_LIMIT } from "./restarts.ts";

export class McpRegistry extends RegistryCore {
  private constructor(opts: RegistryOptions) {
    super(opts);
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
   * A config with `disabled`, or named in `notApproved`, is listed as "disabled" and not started
   * (its error "not approved", or the reason `notApproved` maps its name to).
   */
  async connect(configs: ServerConfig[], notApproved: ReadonlySet<string> | ReadonlyMap<string, string> = new Set()): Promise<void> {
    const starting: Promise<void>[] = [];
    for (const config of configs) {
      const state: ServerState = { name: config.name, status: "failed", config, tools: [], prompts: [], resources: [], stderr: [] };
      this.servers.push(state);
      if (config.disabled || notApproved.has(config.name)) {
        const reason = notApproved instanceof Map ? notApproved.get(config.name) : undefined;
        Object.assign(state, { status: "disabled", error: config.disabled ? "by its entry" : (reason ?? "not approved") });
        continue;
      }
      starting.push(this.startOne(state));
    }
    await Promise.all(starting);
  }

  /**
   * Closes the server's session, if any, and starts it again: handshake and lists afresh, so the
   * model's next call sees its new tools (the interactive `/mcp reconnect`). Resolves with its new
   * snapshot, connected or failed (a failure is reported as at start-up). A disabled server stays so.
   * @throws Error for an unknown server name.
   */
  async reconnect(name: string): Promise<ServerSnapshot> {
    const state = this.servers.find((s) => s.name === name);
    if (!state) throw new Error(`no MCP server named "${name}"`);
    if (state.status !== "disabled") await this.restarter.run(name).then(() => this.reportRestart(state));
    return Object.freeze({ ...state });
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
    const now = Date.now();
    for (const state of this.servers) {
      // A remote server that failed may be back: probed again, at most once a minute.
      // One that died mid-run is brought back by its next call instead (revive), within its budget.
      const reprobe = state.status === "failed" && state.config.type !== "stdio" && !this.died.has(state.name);
      if (reprobe && now - (state.probedAt ?? 0) >= REPROBE_INTERVAL_MS && !this.shuttingDown) {
        work.push(this.restarter.run(state.name).then(() => this.reportRestart(state)));
        continue;
      }
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

  /** `skills/get` of a server that declared the skills extension. Rejects like `getPrompt`. */
  async getSkill(server: string, uri: string): Promise<unknown> {
    return this.client(server).getSkill(uri, { timeoutMs: this.toolTimeoutFor(server) });
  }

  /** `completion/complete` (see `McpClient.complete`), bounded by the entry's `toolTimeout` unless `opts` says otherwise. Rejects like `getPrompt`. */
  async complete(server: string, request: CompleteRequest, opts: RequestOptions = {}): Promise<CompleteResult> {
    return this.client(server).complete(request, { timeoutMs: this.toolTimeoutFor(server), ...opts });
  }

  /**
   * `tools/call` with the server's own tool name, returning the raw result (`isError` included),
   * bounded by the entry's `toolTimeout`, else MCP_TOOL_TIMEOUT, unless `opts` says otherwise. Rejects like `getPrompt`, and with
   * RequestTimeoutError, RequestCancelledError or ConnectionClosedError (errors.ts). A task tool
   * (tasks/call.ts) is run as a task and followed; it may also reject with TaskCallError.
   */
  async callTool(server: string, tool: string, args: Record<string, unknown>, opts: ToolCallOptions = {}): Promise<CallToolResult> {
    const state = this.servers.find((s) => s.name === server);
    const target = { capabilities: state?.capabilities, tools: state?.tools ?? [], preferTasks: state?.config.preferTasks };
    return callTool(this.client(server), target, tool, args, { timeoutMs: this.toolTimeoutFor(server), ...opts }, this.tasks);
  }

  /** The connected session of `server`, for the task commands (`mcp tasks`, `mcp task`). @throws Error for an unknown or disconnected server. */
  taskPeer(server: string): TaskPeer {
    return this.client(server);
  }

  /** Shuts every server down concurrently (see `StdioTransport.close`). Idempotent; never throws. */
  shutdown(): Promise<void> {
    // Servers still starting are closed too; reports of servers that died before shutdown began are finished, not cut off.
    // Tasks still running are cancelled first (tasks/cancel), within the same grace the servers get.
    this.shuttingDown ??= this.tasks
      .cancelAll(this.opts.graceMs ?? DEFAULT_CANCEL_BUDGET_MS)
      .then(() => Promise.all([...[...this.spawned].map((c) => c.close(this.opts.graceMs)), ...this.reports]))
      .then(() => {});
    return this.shuttingDown;
  }
}
