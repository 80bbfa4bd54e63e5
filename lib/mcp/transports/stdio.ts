/**
 * The stdio transport (MCP 2025-11-25, basic/transports#stdio and basic/lifecycle#stdio):
 * one server process, its pipes, its stderr tail and the shutdown sequence. The only file
 * that spawns MCP servers.
 */
import type { ServerConfig } from "../config.ts";
import { messageOf } from "../errors.ts";
import { type FramedLine, readLines } from "../framing.ts";
import { signalGroup, trackGroup } from "../../process/group.ts";

/** How the process ended: `code` for a normal exit, `signal` (e.g. "SIGKILL") when killed. */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

/** What the session layer needs from a transport; tests may supply another implementation. */
export interface Transport {
  readonly lines: AsyncIterable<FramedLine>;
  /** The process id, for transports that are a process. */
  readonly pid?: number;
  /** Sends one serialised JSON-RPC message, adding the newline. Throws when the pipe is closed. */
  write(message: string): void;
  /** Resolves when the process exits. */
  readonly exited: Promise<ExitInfo>;
  /** Last lines of the server's stderr, oldest first. */
  stderrTail(): string[];
  close(graceMs?: number): Promise<void>;
}

export interface StdioOptions {
  /** Working directory of the server process. */
  cwd: string;
  /** Receives every stderr line as it arrives (shown as `[server] line` under --verbose). */
  onStderrLine?: (line: string) => void;
}

/** Bounds of the stderr tail kept per server. */
export const STDERR_TAIL_LINES = 20;
export const STDERR_TAIL_BYTES = 8 * 1024;
/** Wait between SIGTERM and SIGKILL, in ms. */
const KILL_AFTER_MS = 500;
/** How long a server may take to exit after its stdin closes before SIGTERM (ms). */
export const DEFAULT_CLOSE_GRACE_MS = 500;
/** After the group is gone, how long stderr may take to reach EOF so the tail is complete, in ms. */
const STDERR_DRAIN_MS = 200;

export class StdioTransport implements Transport {
  readonly lines: AsyncIterable<FramedLine>;
  readonly exited: Promise<ExitInfo>;
  /** Set once the process has exited. */
  exit: ExitInfo | undefined;
  private readonly tail: string[] = [];
  private tailBytes = 0;
  private readonly stopReading = new AbortController();
  /** Ends the exit hook's claim on this server's process group. */
  private readonly untrack: () => void;
  private closing: Promise<void> | undefined;
  private readonly stderrDone: Promise<void>;

  private constructor(
    private readonly proc: Bun.Subprocess<"pipe", "pipe", "pipe">,
    readonly name: string,
    onStderrLine?: (line: string) => void,
  ) {
    this.lines = readLines(proc.stdout, { signal: this.stopReading.signal });
    this.exited = proc.exited.then(() => {
      this.exit = { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode) };
      return this.exit;
    });
    // Servers lead their own process group, so they miss the terminal's ^C: kill them if we die first.
    this.untrack = trackGroup(proc.pid);
    this.stderrDone = this.readStderr(onStderrLine);
  }

  /**
   * Starts `config.command` with `config.args` in `opts.cwd`, `config.env` added to the inherited
   * environment, as the leader of a new process group (setsid) so shutdown can signal the group.
   * @throws Error "command not found: …" or "cannot start …" when the process cannot be spawned.
   */
  static spawn(config: ServerConfig, opts: StdioOptions): StdioTransport {
    let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
    try {
      proc = Bun.spawn([config.command, ...config.args], {
        cwd: opts.cwd,
        env: { ...process.env, ...config.env },
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        detached: true,
      });
    } catch (error) {
      const text = messageOf(error);
      if (/executable not found/i.test(text)) throw new Error(`command not found: ${config.command}`);
      throw new Error(`cannot start ${JSON.stringify(config.command)}: ${text}`);
    }
    return new StdioTransport(proc, config.name, opts.onStderrLine);
  }

  get pid(): number {
    return this.proc.pid;
  }

  write(message: string): void {
    if (this.closing || this.exit) throw new Error(`MCP server "${this.name}" is not running`);
    // A dead reader surfaces as an EPIPE rejection here; the exit is reported by `exited`.
    const written: unknown = this.proc.stdin.write(`${message}\n`);
    if (written instanceof Promise) written.catch(() => {});
    // FileSink buffers; flush now so a request is not held back waiting for more writes.
    const flushed: unknown = this.proc.stdin.flush();
    if (flushed instanceof Promise) flushed.catch(() => {});
  }

  /** Last stderr lines (at most 20 lines / 8 KB); complete once `close()` has resolved. */
  stderrTail(): string[] {
    return [...this.tail];
  }

  /**
   * The shutdown sequence (basic/lifecycle#stdio): close stdin; if the process is still running
   * after `graceMs` ms, SIGTERM its process group, and after a further 500 ms SIGKILL it. The group
   * is SIGKILLed at the end in every case, so grandchildren that outlive the leader die too.
   * Resolves as soon as the leader has exited; never waits on pipes a grandchild may hold.
   * Idempotent; never throws.
   */
  close(graceMs = DEFAULT_CLOSE_GRACE_MS): Promise<void> {
    this.closing ??= this.shutdown(graceMs);
    return this.closing;
  }

  private async shutdown(graceMs: number): Promise<void> {
    const pid = this.proc.pid;
    try {
      // Not awaited: a server that stopped reading would never let the flush finish.
      const ended = this.proc.stdin.end();
      if (ended instanceof Promise) ended.catch(() => {});
    } catch {
      // The process may already be gone, taking the pipe with it.
    }
    if (!(await settlesWithin(this.exited, graceMs))) {
      signalGroup(pid, "SIGTERM");
      if (!(await settlesWithin(this.exited, KILL_AFTER_MS))) signalGroup(pid, "SIGKILL");
    }
    signalGroup(pid, "SIGKILL");
    await this.exited;
    this.untrack();
    await settlesWithin(this.stderrDone, STDERR_DRAIN_MS);
    // A grandchild outside the group could hold the pipes open forever: stop reading them.
    this.stopReading.abort();
  }

  private async readStderr(onLine?: (line: string) => void): Promise<void> {
    try {
      for await (const raw of readLines(this.proc.stderr, { signal: this.stopReading.signal })) {
        const line = typeof raw === "string" ? raw : new TextDecoder().decode(raw);
        this.remember(line);
        onLine?.(line);
      }
    } catch {
      // stderr is diagnostics only: a read error loses the tail, not the server.
    }
  }

  private remember(line: string): void {
    const kept = line.length > 1000 ? `${line.slice(0, 1000)}…` : line;
    this.tail.push(kept);
    this.tailBytes += kept.length;
    while (this.tail.length > STDERR_TAIL_LINES || this.tailBytes > STDERR_TAIL_BYTES) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }
}

/** True when `promise` settles within `ms`; the timer never outlives the wait. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
