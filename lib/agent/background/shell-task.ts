/**
 * One background shell: `bash -c command` as its own process group (setsid), stdin /dev/null,
 * stdout and stderr together into the task's output file, capped at MAX_OUTPUT_FILE_BYTES with
 * the cut said in the file. It ends when the shell exits (whatever it left in its group is then
 * ended too: no orphans), at its time limit, or when stopped; each time the group gets SIGTERM,
 * then SIGKILL after KILL_GRACE_MS. The group is tracked (process/group.ts), so even an exit of
 * this process that runs no cleanup leaves nothing behind.
 */
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { killProcessGroup, signalGroup, trackGroup } from "../../process/group.ts";
import { spawnShell } from "../../tools/bash.ts";
import type { CommandSandbox } from "../../sandbox/sandbox.ts";

/** The most bytes an output file holds; what comes after is read and dropped, and the file says so. */
export const MAX_OUTPUT_FILE_BYTES = 16 * 1024 * 1024;
/** Between SIGTERM and SIGKILL (ms). */
export const KILL_GRACE_MS = 1000;
/** Output still in the pipe is read this long (ms) after the shell exits. */
const DRAIN_MS = 100;

export interface ShellEnd {
  /** completed: exit 0; failed: any other exit or a signal; killed: the time limit; stopped: TaskStop or shutdown. */
  status: "completed" | "failed" | "killed" | "stopped";
  exitCode: number | null;
  signal: string | null;
}

export interface ShellTask {
  pid: number;
  /** Settles once the shell has exited and its group is gone. */
  done: Promise<ShellEnd>;
  /** Ends the group (SIGTERM, then SIGKILL); `done` then settles as "stopped". */
  stop(): Promise<void>;
}

export interface ShellStart {
  command: string;
  cwd: string;
  /** Created here (0600, never through a symlink, never an existing file). */
  outputFile: string;
  timeoutMs: number;
  /** The cap of the output file (bytes); tests lower it. */
  maxBytes?: number;
  /** The OS sandbox it runs in, as a foreground Bash call with the same input would (lib/sandbox). */
  sandbox?: CommandSandbox;
  /** Each complete output line as it comes (a Monitor's events); without it, output only goes to the file. */
  onLine?: (line: string) => void;
}

/** @throws Error when the output file cannot be created or the shell cannot start. */
export function startShell(o: ShellStart): ShellTask {
  const fd = openSync(o.outputFile, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  let proc: Bun.Subprocess<"ignore", "pipe", "ignore">;
  let argv = ["bash", "-c", 'exec 2>&1; eval "$1"', "bash", o.command];
  let release = () => {};
  try {
    if (o.sandbox) ({ argv, release } = o.sandbox.wrap(argv, { cwd: o.cwd }));
    proc = spawnShell(argv, o.cwd);
  } catch (err) {
    release();
    closeSync(fd);
    throw new Error(`cannot run the command in ${o.cwd}: ${(err as Error).message}`);
  }
  const untrack = trackGroup(proc.pid);
  const reader = proc.stdout.getReader();
  const pump = copyCapped(reader, fd, o.maxBytes ?? MAX_OUTPUT_FILE_BYTES, o.onLine && lineSplitter(o.onLine));
  let why: "killed" | "stopped" | undefined;
  let ending: Promise<void> | undefined;
  const end = (reason: "killed" | "stopped") => {
    why ??= reason;
    ending ??= killProcessGroup(proc.pid, KILL_GRACE_MS);
    return ending;
  };
  const timer = setTimeout(() => void end("killed"), o.timeoutMs);
  const done = (async (): Promise<ShellEnd> => {
    await proc.exited;
    clearTimeout(timer);
    // What a finished command left running in its group goes too (Claude Code leaves it; we do not).
    await Promise.race([pump, Bun.sleep(DRAIN_MS)]);
    if (signalGroup(proc.pid, 0)) await (ending ?? killProcessGroup(proc.pid, KILL_GRACE_MS));
    await ending;
    // Something that left the group (setsid) may hold the pipe open for good: stop reading regardless.
    await Promise.race([pump, Bun.sleep(DRAIN_MS)]);
    await reader.cancel().catch(() => {});
    await pump;
    untrack();
    release();
    // The file's last line, as Claude Code writes it: how the command ended.
    const last = why ? "[killed]" : proc.exitCode !== null ? `[exited with code ${proc.exitCode}]` : undefined;
    try {
      if (last) writeSync(fd, `\n${last}\n`);
    } catch {
      // The notice still says it.
    }
    closeSync(fd);
    const signal = proc.signalCode === null ? null : String(proc.signalCode);
    if (why) return { status: why, exitCode: proc.exitCode, signal };
    return { status: proc.exitCode === 0 ? "completed" : "failed", exitCode: proc.exitCode, signal };
  })();
  return { pid: proc.pid, done, stop: () => end("stopped") };
}

/** Copies the stream into `fd` up to `max` bytes, then one line saying the rest was dropped; reads on to the end. */
async function copyCapped(
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> },
  fd: number,
  max: number,
  lines?: { push(chunk: Uint8Array): void; end(): void },
): Promise<void> {
  let written = 0;
  let cut = false;
  try {
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done || !chunk) break;
      lines?.push(chunk);
      if (cut) continue;
      const room = max - written;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      writeSync(fd, part);
      written += part.length;
      if (part.length < chunk.length) {
        cut = true;
        writeSync(fd, `\n[output cut: this file keeps the first ${max} bytes; the rest was dropped]\n`);
      }
    }
  } catch {
    // Cancelled, or the file became unwritable: what was written stays.
  }
  lines?.end();
}

/** At most this many characters of one line reach `onLine`; a longer line is cut there (its end is dropped). */
const MAX_LINE_CHARS = 2000;

/** Splits a byte stream into lines for `onLine`: a final line without a newline still counts. */
function lineSplitter(onLine: (line: string) => void): { push(chunk: Uint8Array): void; end(): void } {
  const decoder = new TextDecoder();
  let partial = "";
  return {
    push(chunk) {
      const parts = (partial + decoder.decode(chunk, { stream: true })).split("\n");
      partial = parts.pop()!.slice(0, MAX_LINE_CHARS);
      for (const line of parts) onLine(line.replace(/\r$/, "").slice(0, MAX_LINE_CHARS));
    },
    end() {
      const rest = partial + decoder.decode();
      if (rest) onLine(rest.slice(0, MAX_LINE_CHARS));
    },
  };
}
