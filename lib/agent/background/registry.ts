/**
 * The process's one register of background work: every task (a background shell, a Monitor, a
 * background agent) gets an id here, its output file in the session's tasks folder, a time limit,
 * and on its end a notice in the queue the mode turns into a model turn. TaskStop takes only ids
 * this register issued. Listeners (host mode's events, the session's status line) hear every change.
 * Shutdown stops whatever still runs, one stderr line each.
 */
import { join } from "node:path";
import { onShutdown } from "../lifecycle.ts";
import { type Notice, shellSummary, TIME_LIMIT_NOTE } from "./notice.ts";
import { type ShellEnd, startShell } from "./shell-task.ts";
import { tasksFolder } from "./tasks-folder.ts";
import { terminalText } from "../../shared/terminal-text.ts";
import type { CommandSandbox } from "../../sandbox/sandbox.ts";

export type TaskType = "local_bash" | "monitor" | "local_agent";
export type TaskStatus = "running" | "completed" | "failed" | "killed" | "stopped";

export interface TaskInfo {
  id: string;
  type: TaskType;
  /** What the user and the model know it by: the description, else the command. */
  label: string;
  command?: string;
  outputFile: string;
  toolUseId?: string;
  status: TaskStatus;
  exitCode?: number | null;
  startedAt: number;
  /** When its time limit stops it (ms since the epoch). */
  deadline: number;
  endedAt?: number;
}

export type TaskEvent =
  | { kind: "started"; task: TaskInfo }
  | { kind: "ended"; task: TaskInfo; notice?: Notice }
  | { kind: "event"; task: TaskInfo; notice: Notice };

/** What a kind of task gives the register: how to stop it, and when it is over. */
export interface TaskRun {
  stop(): Promise<void>;
  done: Promise<{ status: Exclude<TaskStatus, "running">; notice?: Omit<Notice, "taskId" | "toolUseId" | "outputFile"> }>;
}

/** A TaskStop refusal: one line the model reads. */
export class TaskStopError extends Error {}

/** The most characters of event lines one Monitor notice carries. */
export const MAX_EVENT_CHARS = 8000;
/** The most notices one Monitor sends; past them it is stopped (a flood must not become endless turns). */
export const MAX_MONITOR_NOTICES = 50;

const ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

/** `b` and 8 characters of [a-z0-9], as Claude Code's shell ids. */
export function newTaskId(prefix = "b", length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return prefix + [...bytes].map((b) => ID_CHARS[b % ID_CHARS.length]).join("");
}

export class TaskRegistry {
  private readonly tasks = new Map<string, { info: TaskInfo; run: TaskRun; notices?: number; flooded?: boolean }>();
  private readonly queue: Notice[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly listeners = new Set<(e: TaskEvent) => void>();
  private session: { cwd: string; id: string } = { cwd: process.cwd(), id: crypto.randomUUID() };
  private folder: string | undefined;

  constructor(private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {}

  /** The session whose tasks folder new tasks write to. */
  useSession(cwd: string, sessionId: string): void {
    if (this.session.id === sessionId && this.session.cwd === cwd) return;
    this.session = { cwd, id: sessionId };
    this.folder = undefined;
  }

  /** Hears every start, end and Monitor event; returns the unsubscribe. */
  listen(fn: (e: TaskEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** A new task's id (or `given`, an agent's own id) and output file path (the folder made on first use). */
  allocate(prefix = "b", given?: string): { id: string; outputFile: string } {
    this.folder ??= tasksFolder(this.session.cwd, this.session.id);
    if (given && /^[a-z0-9]{1,40}$/.test(given) && !this.tasks.has(given)) return { id: given, outputFile: join(this.folder, `${given}.output`) };
    let id = newTaskId(prefix);
    while (this.tasks.has(id)) id = newTaskId(prefix);
    return { id, outputFile: join(this.folder, `${id}.output`) };
  }

  /** Starts a background shell; `timeoutMs` is its time limit. @throws Error when it cannot start. */
  startShell(o: { command: string; description?: string; cwd: string; timeoutMs: number; toolUseId?: string; sandbox?: CommandSandbox }): TaskInfo {
    const { id, outputFile } = this.allocate();
    const shell = startShell({ command: o.command, cwd: o.cwd, outputFile, timeoutMs: o.timeoutMs, sandbox: o.sandbox });
    const label = o.description?.trim() || o.command;
    const done = shell.done.then((end: ShellEnd) => {
      if (end.status === "stopped") return { status: "stopped" as const };
      const notice = {
        status: end.status,
        summary: shellSummary(label, end.status, end.exitCode, end.signal),
        ...(end.status === "killed" ? { note: TIME_LIMIT_NOTE } : {}),
        exitCode: end.exitCode,
      };
      return { status: end.status, notice };
    });
    return this.add(
      { id, type: "local_bash", label, command: o.command, outputFile, toolUseId: o.toolUseId, timeoutMs: o.timeoutMs },
      { stop: shell.stop, done },
    );
  }

  /** Registers a task already started under an id from `allocate`. */
  add(o: { id: string; type: TaskType; label: string; command?: string; outputFile: string; toolUseId?: string; timeoutMs: number }, run: TaskRun): TaskInfo {
    const now = Date.now();
    const info: TaskInfo = {
      id: o.id,
      type: o.type,
      label: o.label,
      ...(o.command !== undefined ? { command: o.command } : {}),
      outputFile: o.outputFile,
      ...(o.toolUseId ? { toolUseId: o.toolUseId } : {}),
      status: "running",
      startedAt: now,
      deadline: now + o.timeoutMs,
    };
    this.tasks.set(info.id, { info, run });
    ensureShutdownHook(this);
    this.emit({ kind: "started", task: { ...info } });
    const entry = this.tasks.get(info.id)!;
    void run.done.then(
      (end) =>
        entry.flooded
          ? this.finish(info, "killed", {
              status: "killed",
              summary: `Monitor "${info.label}" was stopped: it sent more than ${MAX_MONITOR_NOTICES} notices. Watch for something rarer (filter its output), or read its output file`,
            })
          : this.finish(info, end.status, end.notice),
      (err) => this.finish(info, "failed", { status: "failed", summary: `Background task "${info.label}" failed: ${(err as Error).message}` }),
    );
    return { ...info };
  }

  /**
   * A Monitor's event line: a notice while the task goes on. Lines that come while its last notice
   * still waits for the model join that notice, up to MAX_EVENT_CHARS (the rest is counted, and
   * the notice says so); past MAX_MONITOR_NOTICES notices the monitor is stopped, saying why.
   */
  event(id: string, line: string, summary: string): void {
    const entry = this.tasks.get(id);
    if (entry?.info.status !== "running") return;
    const waiting = this.queue.find((n) => n.taskId === id && n.event !== undefined);
    if (waiting) {
      if (waiting.event!.length + line.length + 1 > MAX_EVENT_CHARS) waiting.dropped = (waiting.dropped ?? 0) + 1;
      else waiting.event += `\n${line}`;
      return;
    }
    entry.notices = (entry.notices ?? 0) + 1;
    if (entry.notices > MAX_MONITOR_NOTICES) {
      if (!entry.flooded) {
        entry.flooded = true;
        void entry.run.stop();
      }
      return;
    }
    const notice: Notice = { taskId: id, summary, event: line.slice(0, MAX_EVENT_CHARS) };
    this.push(notice);
    this.emit({ kind: "event", task: { ...entry.info }, notice });
  }

  private finish(info: TaskInfo, status: Exclude<TaskStatus, "running">, notice?: Omit<Notice, "taskId" | "toolUseId" | "outputFile">): void {
    if (info.status !== "running") return;
    info.status = status;
    info.endedAt = Date.now();
    if (notice?.exitCode !== undefined) info.exitCode = notice.exitCode;
    // A task the model or the user stopped sends the model no notice, as in Claude Code.
    const full =
      status === "stopped" || !notice
        ? undefined
        : { taskId: info.id, ...(info.toolUseId ? { toolUseId: info.toolUseId } : {}), outputFile: info.outputFile, ...notice };
    if (full) this.push(full);
    this.emit({ kind: "ended", task: { ...info }, ...(full ? { notice: full } : {}) });
    // A waiter for "nothing left running" wakes too.
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private push(notice: Notice): void {
    this.queue.push(notice);
    this.wake();
  }

  private emit(e: TaskEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /** Every task of this process, oldest first. */
  list(): TaskInfo[] {
    return [...this.tasks.values()].map((t) => ({ ...t.info }));
  }

  running(): TaskInfo[] {
    return this.list().filter((t) => t.status === "running");
  }

  /** Notices not yet handed to the model, oldest first; the queue is emptied. */
  takeNotices(): Notice[] {
    return this.queue.splice(0);
  }

  hasNotices(): boolean {
    return this.queue.length > 0;
  }

  /** Settles when a notice is queued or a task ends (at once if one is queued), or when `signal` aborts. */
  changed(signal?: AbortSignal): Promise<void> {
    if (this.queue.length || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal?.removeEventListener("abort", done);
        this.waiters.delete(done);
        resolve();
      };
      this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /**
   * TaskStop: stops task `id` and its process group. @throws TaskStopError for an id that is not
   * one we issued, a path, or a task already over.
   */
  async stop(id: string): Promise<TaskInfo> {
    const trimmed = id.trim();
    if (/[/\\.]/.test(trimmed) || trimmed.length > 64) {
      throw new TaskStopError(`"${trimmed.slice(0, 80)}" is not a task id: give the id a background task was started with (like b1a2b3c4d), not a path`);
    }
    const entry = this.tasks.get(trimmed);
    if (!entry) throw new TaskStopError(`No task found with ID: ${trimmed}`);
    if (entry.info.status !== "running") {
      const code = entry.info.exitCode === undefined || entry.info.exitCode === null ? "" : `, exit code ${entry.info.exitCode}`;
      throw new TaskStopError(`Task ${trimmed} is not running (it ${entry.info.status}${code}); there is nothing to stop`);
    }
    await entry.run.stop();
    await entry.run.done.catch(() => {});
    this.finish(entry.info, "stopped");
    return { ...entry.info };
  }

  /** Stops every running task (shutdown, host EOF, /exit): one stderr line each. */
  async stopAll(reason = "the run is ending"): Promise<void> {
    const live = [...this.tasks.values()].filter((t) => t.info.status === "running");
    await Promise.all(
      live.map(async (t) => {
        await this.stop(t.info.id).catch(() => {});
        this.log(`stopped background task ${t.info.id} (${oneLine(t.info.label)}): ${reason}`);
      }),
    );
  }
}

/** A label for a terminal line: one line, no control characters, at most 60 characters. */
export const oneLine = (s: string) => {
  const flat = terminalText(s, { oneLine: true });
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
};

const hooked = new WeakSet<TaskRegistry>();
function ensureShutdownHook(r: TaskRegistry): void {
  if (hooked.has(r)) return;
  hooked.add(r);
  onShutdown(() => r.stopAll());
}

let shared: TaskRegistry | undefined;

/** The process's one register (made on first use). */
export function processTasks(): TaskRegistry {
  shared ??= new TaskRegistry();
  return shared;
}
