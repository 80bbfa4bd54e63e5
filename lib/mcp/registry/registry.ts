/**
 * All MCP sessions of a run: started concurrently, each with a status; read through snapshots;
 * tools, prompts and resources on request; one shutdown for all. Knows nothing of the agent:
 * lib/agent/mcp turns what it lists into the agent's tools, commands and attachments.
 */
import type { McpClient } from "../session/client.ts";
import type { ServerConfig } from "../config/load.ts";
import { type ClientFeatures, workingDirectoryRoots } from "../session/features.ts";
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ListKind,
  McpPrompt,
  McpResource,
  ReadResourceResult,
} from "../protocol/protocol.ts";
import type { RequestOptions } from "../session/jsonrpc.ts";
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from "../config/env.ts";
import { errorMessage } from "../../shared/values.ts";
import { beginWork } from "../../shared/pending-work.ts";
import { REPROBE_INTERVAL_MS, type RegistryOptions, type ServerSnapshot, type ServerState } from "./types.ts";
import { Restarter } from "./restarts.ts";
import { authRequired, HandshakeError, handshake, listInto, openSession, orNone } from "./session-start.ts";
import { callTool, type ToolCallOptions } from "../tasks/call.ts";
import type { TaskPeer } from "../tasks/peer.ts";
import { DEFAULT_CANCEL_BUDGET_MS, RunningTasks } from "../tasks/running.ts";

export type { FailurePhase, RegistryOptions, ServerSnapshot } from "./types.ts";

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
  /** Tasks being followed (tasks/ …), cancelled at shutdown. */
  private readonly tasks = new RunningTasks();
  private readonly reports = new Set<Promise<void>>();
  private readonly startupTimeoutMs: number;
  private readonly toolTimeoutMs: number;
  private readonly features: ClientFeatures;
  /** The report of a server's death, by server: a restart waits until the old process is gone. */
  private readonly endings = new Map<string, Promise<void>>();
  private readonly warned = new Set<string>();
  /** Servers whose session ended after connecting: a tool call brings them back (`revive`). */
  private readonly died = new Set<string>();
  private readonly restarter = new Restarter({
    restart: (name) => this.restart(name),
    log: (line) => this.opts.log(line),
    stopping: () => this.shuttingDown !== undefined,
    giveUp: (name, reason) => {
      const state = this.servers.find((s) => s.name === name)!;
      this.clients.delete(name);
      state.error = reason;
      this.changes++;
      this.opts.onServerFailed?.(Object.freeze({ ...state }), "exit");
    },
  });

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
        Object.assign(state, { status: "disabled", error: config.disabled ? "by its entry" : "not approved" });
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

  /**
   * Asked before a tool call to `server`. Undefined: call now. A promise resolving undefined:
   * the server is back (or was being restarted), call now. A promise resolving a line: that line
   * is the call's error result. A server whose session ended after connecting is restarted here,
   * again after a restart that failed, at most 3 times in 5 minutes (restarts.ts); the wait is
   * bounded by the entry's tool timeout. Once the budget is spent every call gets the line saying
   * the server failed. A call in flight when the server died is never sent again: it failed.
   */
  revive(server: string): Promise<string | undefined> | undefined {
    const failed = this.restarter.failure(server);
    if (failed) return Promise.resolve(failed);
    const pending = this.restarter.pending(server);
    if (pending)
      return this.within(
        server,
        pending.then(() => this.restarter.failure(server)),
      );
    const state = this.servers.find((s) => s.name === server);
    if (!state || this.clients.get(server)?.connected || !this.died.has(server) || this.shuttingDown) return undefined;
    return this.within(
      server,
      (async () => {
        // watch() saw the end first (its callback was registered first); its report says why.
        await this.clients.get(server)?.closed;
        await this.endings.get(server);
        return this.restarter.recover(server, state.error ?? "exited");
      })(),
    );
  }

  /** `recovery`, or the line saying it took longer than the tool timeout (the restart goes on for later calls). */
  private async within(server: string, recovery: Promise<string | undefined>): Promise<string | undefined> {
    const ms = this.toolTimeoutFor(server);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(resolve, ms, `MCP server "${server}" is restarting and was not back within ${ms} ms (MCP_TOOL_TIMEOUT); call the tool again`);
    });
    try {
      return await Promise.race([recovery, late]);
    } finally {
      clearTimeout(timer);
    }
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

  /** The entry's `timeout`, else MCP_TIMEOUT (ms). */
  private startupTimeoutFor(server: string): number {
    return this.servers.find((s) => s.name === server)?.config.timeoutMs ?? this.startupTimeoutMs;
  }

  /** The entry's `toolTimeout`, else MCP_TOOL_TIMEOUT (ms): how long a tool call may take, waits for its server included. */
  toolTimeoutFor(server: string): number {
    return this.servers.find((s) => s.name === server)?.config.toolTimeoutMs ?? this.toolTimeoutMs;
  }

  /**
   * The old session closed (its death report finished) and a fresh start, saying nothing (the
   * caller reports). The server's lists stay offered meanwhile, and stay if the start fails, so
   * its tools answer an error result instead of vanishing; a new start lists them afresh.
   * Resolves with why the start failed, or undefined once connected.
   */
  private async restart(name: string): Promise<string | undefined> {
    const state = this.servers.find((s) => s.name === name)!;
    const old = this.clients.get(name);
    this.clients.delete(name); // first, so its closing is not reported as a death
    if (old) {
      await old.close(this.opts.graceMs);
      this.spawned.delete(old);
    }
    await this.endings.get(name);
    for (const key of ["error", "needsAuth", "protocolVersion", "era", "capabilities", "serverInfo", "instructions", "pid"] as const) delete state[key];
    Object.assign(state, { status: "failed", stderr: [] });
    const lists = { tools: state.tools, prompts: state.prompts, resources: state.resources, resourceTemplates: state.resourceTemplates, skills: state.skills };
    // Skills are listed again only when the new session declares the extension.
    state.skills = undefined;
    await this.startOne(state, true);
    if (state.status !== "connected") Object.assign(state, lists);
    else for (const kind of ["tools", "prompts", "resources"] as const) if (!state.capabilities?.[kind]) state[kind] = [];
    this.changes++;
    return state.status === "connected" ? undefined : (state.error ?? "failed to start");
  }

  /** What `reconnect` says: a failure as at start-up, and that the server is settled. */
  private reportRestart(state: ServerState): void {
    if (this.shuttingDown) return;
    const snapshot = Object.freeze({ ...state });
    if (state.status !== "connected") this.opts.onServerFailed?.(snapshot, "start");
    this.opts.onServerSettled?.(snapshot);
  }

  /** Starts one server into `state`; `quiet` (a restart) leaves the reporting to the caller. */
  private async startOne(state: ServerState, quiet = false): Promise<void> {
    const name = state.name;
    const started = beginWork(`MCP server "${name}" start-up`);
    let client: McpClient | undefined;
    try {
      // A stdio server is spawned synchronously here, before the first wait.
      client = await openSession(state.config, this.opts, this.features);
      this.spawned.add(client);
      state.pid = client.diagnostics().pid;
      if (this.shuttingDown) throw new Error("shut down during start-up");
      state.probedAt = Date.now();
      await handshake(client, state, { strict: true, timeoutMs: this.startupTimeoutFor(name), log: this.opts.log, warned: this.warned });
      if (this.shuttingDown) throw new Error("shut down during start-up");
      state.status = "connected";
      this.changes++;
      this.clients.set(name, client);
      this.watch(client, state);
    } catch (error) {
      state.status = "failed";
      const auth = authRequired(error);
      // The line below names the server already; errors from the connection name it too.
      state.error = auth ? auth.message.replace(`MCP server "${name}" `, "") : errorMessage(error).replace(`MCP server "${name}": `, "");
      // A login this run cannot do (`-p`, no terminal): reported as such, with the command to run.
      if (auth) state.needsAuth = true;
      // Closed first: the stderr tail is complete only once the process is gone.
      await client?.close(this.opts.graceMs);
      state.stderr = client?.diagnostics().stderrTail ?? [];
      // A start cut short by our own shutdown (a signal) is not the server's failure.
      if (!this.shuttingDown && !quiet) this.opts.onServerFailed?.(Object.freeze({ ...state }), error instanceof HandshakeError ? "handshake" : "start");
    }
    // A start cut short by our shutdown is not a server's outcome to count.
    if (!this.shuttingDown && !quiet) this.opts.onServerSettled?.(Object.freeze({ ...state }));
    started();
  }

  private list(client: McpClient, state: ServerState, kinds: ListKind[], strict: boolean): Promise<void> {
    return listInto(client, state, kinds, { strict, timeoutMs: this.startupTimeoutFor(state.name), log: this.opts.log, warned: this.warned });
  }

  /** A server that dies mid-run becomes "failed", its group is shut down, and one line reports its exit and stderr. */
  private watch(client: McpClient, state: ServerState): void {
    void client.closed.then(() => {
      // Closed by our own shutdown, or replaced by a reconnect: nothing to report.
      if (this.shuttingDown || this.clients.get(state.name) !== client) return;
      state.status = "failed";
      this.died.add(state.name);
      this.changes++;
      const report = (async () => {
        state.error = await client.endReason();
        await client.close(this.opts.graceMs);
        state.stderr = client.diagnostics().stderrTail ?? [];
        this.opts.onServerFailed?.(Object.freeze({ ...state }), "exit");
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
}
