/**
 * The stdio transport (MCP 2025-11-25, basic/transports#stdio and basic/lifecycle#stdio):
 * one server process, its pipes, its stderr tail and the shutdown sequence. The only file
 * that spawns MCP servers; pids and exit codes stay here, reaching others as diagnostics and
 * the `closed` reason.
 */
import { settlesWithin } from "../../shared/async.ts";
import { statSync } from "node:fs";
import { signalGroup, trackGroup } from "../../process/group.ts";
import { type FramedLine, readLines } from "./wire/framing.ts";
import type { Transport, TransportClosed, TransportDiagnostics } from "./transport.ts";
import { spawnError } from "./spawn-errors.ts";
import type { CommandSandbox } from "../../sandbox/sandbox.ts";

/** What starts a stdio server: the config entry's fields this transport reads (a config entry satisfies it). */
export interface StdioLaunch {
  /** The server's name, for error messages. */
  name: string;
  command: string;
  args: string[];
  /** Added to the inherited environment (basic/transports#stdio). */
  env: Record<string, string>;
  /** The server's working directory (absolute); absent → StdioOptions.cwd. */
  cwd?: string;
  /** `command` and `args` as written, before `${VAR}` expansion: what diagnostics show (values may be secrets). */
  written?: { command: string; args: string[] };
}

/** How the process ended: `code` for a normal exit, `signal` (e.g. "SIGKILL") when killed. */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

export interface StdioOptions {
  /** Working directory of the server process. */
  cwd: string;
  /** Receives every stderr line as it arrives (shown as `[server] line` under --verbose). */
  onStderrLine?: (line: string) => void;
  /** The OS sandbox the server runs in (lib/sandbox); absent: it runs as it is. */
  sandbox?: CommandSandbox;
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
/** Once stdout ended, how long to wait for an exit code before saying "closed its output", in ms. */
const EXIT_CODE_WAIT_MS = 1000;

export class StdioTransport implements Transport {
  readonly messages: AsyncIterable<FramedLine>;
  readonly closed: Promise<TransportClosed>;
  /** Resolves when the process exits. */
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
  private outputEnded!: () => void;

  private constructor(
    private readonly proc: Bun.Subprocess<"pipe", "pipe", "pipe">,
    private readonly config: StdioLaunch,
    onStderrLine?: (line: string) => void,
  ) {
    const ended = new Promise<void>((resolve) => (this.outputEnded = resolve));
    this.messages = this.readStdout();
    this.exited = proc.exited.then(() => {
      this.exit = { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode) };
      return this.exit;
    });
    this.closed = this.whyClosed(ended);
    // Servers lead their own process group, so they miss the terminal's ^C: kill them if we die first.
    this.untrack = trackGroup(proc.pid);
    this.stderrDone = this.readStderr(onStderrLine);
  }

  /**
   * Starts `config.command` with `config.args` in `config.cwd` (else `opts.cwd`), `config.env` added to the inherited
   * environment, as the leader of a new process group (setsid) so shutdown can signal the group.
   * @throws Error "command not found: …" or "cannot start …" when the process cannot be spawned (spawnError).
   */
  static spawn(config: StdioLaunch, opts: StdioOptions): StdioTransport {
    let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
    const cwd = config.cwd ?? opts.cwd;
    // Otherwise spawn's ENOENT would blame the command.
    if (config.cwd !== undefined && !isFolder(cwd)) throw new Error(`working directory not found: ${cwd}`);
    const env = serverEnvironment(process.env, config.env);
    let argv = [config.command, ...config.args];
    // --- OS sandbox (lib/sandbox): the same command under bubblewrap; a missing command is still "command not found".
    let release = () => {};
    if (opts.sandbox) {
      if (!Bun.which(config.command, { PATH: env.PATH ?? "", cwd })) throw spawnError(config.command, new Error("executable not found"));
      ({ argv, release } = opts.sandbox.wrap(argv, { cwd }));
    }
    // --- end of the sandbox's part
    try {
      proc = Bun.spawn(argv, {
        cwd,
        env,
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        detached: true,
      });
    } catch (error) {
      release();
      throw spawnError(config.command, error);
    }
    void proc.exited.then(release);
    return new StdioTransport(proc, config, opts.onStderrLine);
  }

  get pid(): number {
    return this.proc.pid;
  }

  /** Writes the message and a newline. Rejects when the server is gone or being shut down. */
  async send(message: string): Promise<void> {
    if (this.closing || this.exit) throw new Error(`MCP server "${this.config.name}" is not running`);
    try {
      // A dead reader surfaces as an EPIPE rejection here; the exit is reported by `closed`.
      const written: unknown = this.proc.stdin.write(`${message}\n`);
      if (written instanceof Promise) written.catch(() => {});
      // FileSink buffers; flush now so a request is not held back waiting for more writes.
      const flushed: unknown = this.proc.stdin.flush();
      if (flushed instanceof Promise) flushed.catch(() => {});
    } catch (error) {
      // EPIPE at once: the process is going. Its exit, once known, is the reason worth reporting.
      await settlesWithin(this.closed, EXIT_CODE_WAIT_MS);
      throw error;
    }
  }

  /** The stderr tail (at most 20 lines / 8 KB, complete once `close()` has resolved), the pid and the command. */
  diagnostics(): TransportDiagnostics {
    const shown = this.config.written ?? this.config;
    return { stderrTail: [...this.tail], pid: this.proc.pid, endpoint: [shown.command, ...shown.args].join(" ") };
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

  /** "exited with code 1" (or "signal SIGKILL"), or "closed its output" when still running 1 s after stdout ended. */
  private async whyClosed(outputEnded: Promise<void>): Promise<TransportClosed> {
    const late = outputEnded.then(() => settlesWithin(this.exited, EXIT_CODE_WAIT_MS));
    const first = await Promise.race([this.exited, late]);
    const exit = typeof first === "boolean" ? this.exit : first;
    const byUs = this.closing !== undefined;
    return exit ? { reason: `exited with ${describeExit(exit)}`, byUs } : { reason: "closed its output", byUs };
  }

  private async *readStdout(): AsyncIterable<FramedLine> {
    try {
      yield* readLines(this.proc.stdout, { signal: this.stopReading.signal });
    } finally {
      this.outputEnded();
    }
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
    this.outputEnded();
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

/** "code 1" or "signal SIGKILL". */
function describeExit(exit: ExitInfo): string {
  return exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal ?? "unknown"}`;
}

/**
 * The agent's own credentials, never handed to a server unless its entry names them in `env`
 * (`"ANTHROPIC_API_KEY": "${ANTHROPIC_API_KEY}"`): any server could otherwise read them.
 */
export const WITHHELD_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"] as const;

/** A stdio server's environment: ours minus `WITHHELD_VARIABLES`, then the entry's `env` on top. */
export function serverEnvironment(inherited: Record<string, string | undefined>, env: Record<string, string>): Record<string, string | undefined> {
  const out = { ...inherited };
  for (const name of WITHHELD_VARIABLES) delete out[name];
  return { ...out, ...env };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
