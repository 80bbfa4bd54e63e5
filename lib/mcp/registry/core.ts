/**
 * The lifecycle of a run's MCP servers, under McpRegistry's public face (registry.ts): starting
 * each session (handshake and lists), watching it end, and bringing a dead server back on its next
 * call, within the restart budget (restarts.ts) and the tool timeout. The registry's state lives
 * here; the registry itself is what callers ask of the servers.
 */
import type { McpClient } from "../session/client.ts";
import { type ClientFeatures, workingDirectoryRoots } from "../session/features.ts";
import type { ListKind } from "../protocol/protocol.ts";
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from "../config/env.ts";
import { errorMessage } from "../../shared/values.ts";
import { beginWork } from "../../shared/pending-work.ts";
import type { RegistryOptions, ServerState } from "./snapshot.ts";
import { Restarter } from "./restarts.ts";
import { authRequired, HandshakeError, handshake, listInto, openSession } from "./session-start.ts";
import { RunningTasks } from "../tasks/running.ts";

/** What every part of the registry shares: the servers' state and how each one starts, dies and comes back. */
export abstract class RegistryCore {
  /** One entry per configured server, in configuration order. */
  protected readonly servers: ServerState[] = [];
  /** Connected sessions by server name. */
  protected readonly clients = new Map<string, McpClient>();
  /** Every session spawned, connected or still starting: what shutdown closes. */
  protected readonly spawned = new Set<McpClient>();
  /** Bumped whenever a list or a status changes, so readers can cache what they built from snapshots. */
  protected changes = 0;
  protected shuttingDown: Promise<void> | undefined;
  /** Tasks being followed (tasks/ …), cancelled at shutdown. */
  protected readonly tasks = new RunningTasks();
  protected readonly reports = new Set<Promise<void>>();
  protected readonly startupTimeoutMs: number;
  protected readonly toolTimeoutMs: number;
  protected readonly features: ClientFeatures;
  /** The report of a server's death, by server: a restart waits until the old process is gone. */
  protected readonly endings = new Map<string, Promise<void>>();
  protected readonly warned = new Set<string>();
  /** Servers whose session ended after connecting: a tool call brings them back (`revive`). */
  protected readonly died = new Set<string>();
  protected readonly restarter = new Restarter({
    restart: (name) => this.restart(name),
    log: (line) => this.opts.log(line),
    stopping: () => this.shuttingDown !== undefined,
    giveUp: (name, reason) => {
      const state = this.servers.find((s) => s.name === name)!;
      this.clients.delete(name);
      state.error = reason;
      delete state.nextRestart;
      this.changes++;
      this.opts.onServerFailed?.(Object.freeze({ ...state }), "exit");
    },
  });

  protected constructor(protected readonly opts: RegistryOptions) {
    this.startupTimeoutMs = opts.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
    this.toolTimeoutMs = opts.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.features = opts.features ?? { roots: workingDirectoryRoots(opts.cwd) };
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
  protected async within(server: string, recovery: Promise<string | undefined>): Promise<string | undefined> {
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

  /** The entry's `timeout`, else MCP_TIMEOUT (ms). */
  protected startupTimeoutFor(server: string): number {
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
  protected async restart(name: string): Promise<string | undefined> {
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
  protected reportRestart(state: ServerState): void {
    if (this.shuttingDown) return;
    const snapshot = Object.freeze({ ...state });
    if (state.status !== "connected") this.opts.onServerFailed?.(snapshot, "start");
    this.opts.onServerSettled?.(snapshot);
  }

  /** Starts one server into `state`; `quiet` (a restart) leaves the reporting to the caller. */
  protected async startOne(state: ServerState, quiet = false): Promise<void> {
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

  protected list(client: McpClient, state: ServerState, kinds: ListKind[], strict: boolean): Promise<void> {
    return listInto(client, state, kinds, { strict, timeoutMs: this.startupTimeoutFor(state.name), log: this.opts.log, warned: this.warned });
  }

  /** A server that dies mid-run becomes "failed", its group is shut down, and one line reports its exit and stderr. */
  protected watch(client: McpClient, state: ServerState): void {
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
        state.nextRestart = this.restarter.nextRestart(state.name);
        this.opts.onServerFailed?.(Object.freeze({ ...state }), "exit");
      })();
      this.reports.add(report);
      this.endings.set(state.name, report);
    });
  }

  protected client(server: string): McpClient {
    const client = this.clients.get(server);
    if (client?.connected) return client;
    const state = this.servers.find((s) => s.name === server);
    if (!state) throw new Error(`no MCP server named "${server}"`);
    throw new Error(`MCP server "${server}" is not connected${state.error ? ` (${state.error})` : ""}`);
  }
}
