/**
 * Bash: runs a shell command in its own process group, with a timeout, capped output,
 * and nothing it started left running afterwards. The working directory carries over from one
 * call to the next (as in Claude Code); nothing else of the shell does.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settlesWithin } from "../shared/async.ts";
import { summarizeField, toolInput } from "./define.ts";
import { HeadTailBuffer } from "../files/truncate.ts";
import { SpillWriter, spillLine } from "../files/spill.ts";
import { killProcessGroup, signalGroup, trackGroup } from "../process/group.ts";
import type { Tool, ToolOutput } from "./tool.ts";
import type { CommandSandbox } from "../sandbox/sandbox.ts";
import { ToolError } from "./tool-error.ts";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** The most characters of output returned, note included. */
export const MAX_OUTPUT_CHARS = 30_000;
/** How long output still in the pipe is read after the shell exits (ms); background jobs may hold it open forever. */
const DRAIN_MS = 100;
/** Between SIGTERM and SIGKILL (ms) when the command is stopped. */
const KILL_GRACE_MS = 1000;
/** Between SIGTERM and SIGKILL (ms) for background jobs left behind by a command that finished. */
const CLEANUP_GRACE_MS = 200;

/** Variables that stop programs from waiting for a pager, an editor or a password prompt that no one will answer. */
export const NON_INTERACTIVE_ENV = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  EDITOR: "true",
  VISUAL: "true",
  GIT_EDITOR: "true",
  GIT_TERMINAL_PROMPT: "0",
  TERM: "dumb",
};

/**
 * A shell as Bash and a background shell (agent/background) start it: a session of its own (so its own
 * process group), stdin /dev/null, its output on one pipe, and no pager or prompt to wait for.
 */
export function spawnShell(argv: string[], cwd: string): Bun.Subprocess<"ignore", "pipe", "ignore"> {
  return Bun.spawn(argv, { cwd, env: { ...process.env, ...NON_INTERACTIVE_ENV }, stdin: "ignore", stdout: "pipe", stderr: "ignore", detached: true });
}

const INPUT = toolInput({
  command: { type: "string", required: true, description: "The command to run" },
  timeout: { type: "integer", minimum: 1, maximum: MAX_TIMEOUT_MS, description: `Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS})` },
  description: { type: "string", description: "What the command does, in 5-10 words" },
  // The OS sandbox's escape (lib/sandbox): offered whether or not a sandbox is on, so the schema never depends on it.
  dangerouslyDisableSandbox: {
    type: "boolean",
    description: "Run this command outside the OS sandbox, when one is on. Only where the settings allow it, and the user is always asked first",
  },
});

export const bashTool: Tool = {
  name: "Bash",
  description: [
    "Runs a bash command in the working directory and returns its output (stdout and stderr interleaved) and exit code.",
    `- timeout is in milliseconds: default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}. On timeout the command and everything it started are killed.`,
    "- The command gets no terminal and an empty stdin: interactive programs, prompts and pagers will not wait for input.",
    `- Output beyond ${MAX_OUTPUT_CHARS} characters is cut in the middle, keeping the start and the end.`,
    "- The working directory carries over: after `cd dir`, the next call starts in dir. Nothing else does: each call is a fresh shell, so environment variables, shell variables, aliases and functions must be set again. A directory that no longer exists falls back to the project directory.",
    "- Background jobs (`cmd &`) are killed when the command finishes.",
    "- Prefer Read, Edit, Write, Glob and Grep over cat, sed, echo >, find and grep.",
  ].join("\n"),
  inputSchema: INPUT.schema,
  asksPermission: true,
  summary: summarizeField("command"),
  async run(input, ctx) {
    const args = INPUT.parse(input);
    const command = args.command;
    if (command.trim() === "") throw new ToolError("command is empty");
    const timeoutMs = args.timeout ?? DEFAULT_TIMEOUT_MS;
    const state = ctx.toolState;
    // Checkpoints: the work tree is recorded before a turn's first command (agent/checkpoints/git-tree.ts).
    ctx.fileChange?.beforeShell?.(state?.shellCwd ?? ctx.cwd);
    const sandbox = ctx.sandbox?.(args); // the OS sandbox this call runs in, if any (lib/sandbox)
    if (!state) return formatResult(await runCommand(command, { cwd: ctx.cwd, timeoutMs, signal: ctx.signal, sandbox }), timeoutMs);
    const { cwd, note } = state.shellDirectory();
    // What the command does to files the model has seen counts as seen; earlier outside changes still count as unseen.
    const seen = state.files.unchanged();
    const result = await runCommand(command, { cwd, timeoutMs, signal: ctx.signal, trackCwd: true, sandbox });
    state.files.refresh(seen);
    if (result.finalCwd) state.shellCwd = result.finalCwd;
    const output = formatResult(result, timeoutMs);
    return note ? { ...output, content: `${note}\n${output.content}` } : output;
  },
};

/** A background command's time limit (ms) when `timeout` is absent, and the longest allowed. */
export const DEFAULT_BACKGROUND_TIMEOUT_MS = 600_000;
export const MAX_BACKGROUND_TIMEOUT_MS = 7_200_000;

/** What starts a background command (lib/agent/background): the text the model reads back (task id, output file). */
export type StartInBackground = (req: {
  command: string;
  description?: string;
  cwd: string;
  timeoutMs: number;
  callId?: string;
  sandbox?: CommandSandbox;
}) => string;

const BACKGROUND_INPUT = toolInput({
  command: { type: "string", required: true, description: "The command to run" },
  timeout: {
    type: "integer",
    minimum: 1,
    maximum: MAX_BACKGROUND_TIMEOUT_MS,
    description: `Timeout in milliseconds. In the foreground: default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}. With run_in_background: how long it may run before it is stopped (default ${DEFAULT_BACKGROUND_TIMEOUT_MS}, at most ${MAX_BACKGROUND_TIMEOUT_MS})`,
  },
  description: { type: "string", description: "What the command does, in 5-10 words" },
  run_in_background: {
    type: "boolean",
    description: "true runs the command in the background: you get a task id and an output file at once, and a notice when it ends",
  },
  dangerouslyDisableSandbox: {
    type: "boolean",
    description: "Run this command outside the OS sandbox, when one is on. Only where the settings allow it, and the user is always asked first",
  },
});

/**
 * Bash's second fixed form (the first is `bashTool`): the same tool with `run_in_background`, offered
 * only where background work is (offered-tools.ts). A foreground call runs exactly as `bashTool`'s.
 */
export function bashToolWithBackground(start: StartInBackground): Tool {
  return {
    ...bashTool,
    description: [
      ...bashTool.description.split("\n").filter((line) => !line.startsWith("- Background jobs")),
      "- Background jobs (`cmd &`) are killed when the command finishes: for a dev server, a watcher or a long build use run_in_background instead.",
      "- With run_in_background the call answers at once with a task id and an output file; read interim output with Read on that file, and stop the task with TaskStop. You are notified when it ends: do not poll or sleep waiting for it.",
    ].join("\n"),
    inputSchema: BACKGROUND_INPUT.schema,
    async run(input, ctx) {
      const args = BACKGROUND_INPUT.parse(input);
      const { run_in_background: background, ...rest } = input;
      if (!background) return bashTool.run({ ...rest, ...(args.timeout === undefined ? {} : { timeout: Math.min(args.timeout, MAX_TIMEOUT_MS) }) }, ctx);
      if (args.command.trim() === "") throw new ToolError("command is empty");
      const cwd = ctx.toolState?.shellDirectory().cwd ?? ctx.cwd;
      const timeoutMs = args.timeout ?? DEFAULT_BACKGROUND_TIMEOUT_MS;
      // The same OS sandbox as a foreground call with this input (lib/sandbox).
      const sandbox = ctx.sandbox?.(args);
      return { content: start({ command: args.command, description: args.description, cwd, timeoutMs, callId: ctx.callId, sandbox }) };
    },
  };
}

export interface CommandResult {
  /** stdout and stderr in arrival order, capped to MAX_OUTPUT_CHARS. */
  output: string;
  /** The shell's exit code; null when it was ended by a signal. */
  exitCode: number | null;
  signalCode: string | null;
  /** Why the call ended: the shell exited, the timeout expired, or `signal` was aborted. */
  ended: "exited" | "timeout" | "interrupted";
  /** With `trackCwd`: the shell's directory when it exited (`pwd -P`); absent when unknown (it `exec`ed, or the directory is gone). */
  finalCwd?: string;
}

/**
 * Runs the command in this shell itself (`eval`), so a `cd` in it moves this shell, and writes
 * this shell's final directory to the file named by $2 on exit, whatever way it exits. $1 is the
 * command; positional parameters are cleared first so the command sees none, as with `bash -c`.
 */
const SHELL_SCRIPT = 'trap "pwd -P >| $(printf %q "$2") 2>/dev/null" EXIT; __agent_command=$1; set --; exec 2>&1; eval "$__agent_command"';
let cwdFiles = 0;

/**
 * Runs `bash -c command` in `cwd` as a new session (so its own process group), stdin /dev/null,
 * stderr merged into stdout. Completion is the shell's exit; then output already in the pipe
 * is drained for DRAIN_MS and the process group is killed, so background jobs never outlive the call.
 * On timeout (`timeoutMs`, ms) or abort the group gets SIGTERM, then SIGKILL after KILL_GRACE_MS;
 * if this process exits mid-command, the group gets SIGKILL (see trackGroup).
 * With `trackCwd`, the result carries the shell's final directory (`finalCwd`).
 * Throws ToolError when the shell cannot be started (e.g. `cwd` missing).
 */
export async function runCommand(
  command: string,
  opts: { cwd: string; timeoutMs: number; signal: AbortSignal; trackCwd?: boolean; sandbox?: CommandSandbox },
): Promise<CommandResult> {
  if (opts.signal.aborted) return { output: "", exitCode: null, signalCode: null, ended: "interrupted" };
  let proc: Bun.Subprocess<"ignore", "pipe", "ignore">;
  const cwdFile = opts.trackCwd ? join(tmpdir(), `agent-bash-cwd-${process.pid}-${++cwdFiles}`) : "/dev/null";
  // `exec 2>&1` gives the user's command one pipe for both streams, so their order is kept.
  let argv = ["bash", "-c", SHELL_SCRIPT, "bash", command, cwdFile];
  // --- OS sandbox (lib/sandbox): the same shell under bubblewrap; the directory file must exist to stay writable there.
  let release = () => {};
  if (opts.sandbox) {
    if (opts.trackCwd) writeFileSync(cwdFile, "");
    ({ argv, release } = opts.sandbox.wrap(argv, { cwd: opts.cwd, files: opts.trackCwd ? [cwdFile] : [] }));
  }
  // --- end of the sandbox's part
  try {
    proc = spawnShell(argv, opts.cwd);
  } catch (error) {
    release();
    throw new ToolError(`Cannot run the command in ${opts.cwd}: ${(error as Error).message}`);
  }
  const untrack = trackGroup(proc.pid);
  try {
    const result = await supervise(proc, opts);
    return opts.trackCwd ? { ...result, ...readCwdFile(cwdFile) } : result;
  } finally {
    untrack();
    release();
    if (opts.trackCwd) rmSync(cwdFile, { force: true });
  }
}

function readCwdFile(file: string): { finalCwd?: string } {
  try {
    const cwd = readFileSync(file, "utf8").replace(/\n$/, "");
    return cwd.startsWith("/") ? { finalCwd: cwd } : {};
  } catch {
    return {};
  }
}

/** Reads `proc`'s output until it exits, times out or is interrupted; then ends its group. */
async function supervise(proc: Bun.Subprocess<"ignore", "pipe", "ignore">, opts: { timeoutMs: number; signal: AbortSignal }): Promise<CommandResult> {
  // 400 characters spare: the omitted marker and the line naming the file with the whole output.
  const buffer = new HeadTailBuffer((MAX_OUTPUT_CHARS - 400) / 2, (MAX_OUTPUT_CHARS - 400) / 2);
  // Every byte also goes to a file once the output outgrows the cap (spill.ts): nothing is lost.
  const spill = new SpillWriter("bash", MAX_OUTPUT_CHARS);
  const reader = proc.stdout.getReader();
  const pump = readAll(reader, buffer, spill);

  let timer: Timer | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<"timeout" | "interrupted">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), opts.timeoutMs);
    onAbort = () => resolve("interrupted");
    opts.signal.addEventListener("abort", onAbort, { once: true });
  });
  const ended = await Promise.race([proc.exited.then(() => "exited" as const), stopped]);
  clearTimeout(timer);
  opts.signal.removeEventListener("abort", onAbort!);
  if (ended !== "exited") await killProcessGroup(proc.pid, KILL_GRACE_MS);
  await proc.exited;

  await settlesWithin(pump, DRAIN_MS);
  if (signalGroup(proc.pid, 0)) {
    await killProcessGroup(proc.pid, CLEANUP_GRACE_MS);
    await settlesWithin(pump, DRAIN_MS);
  }
  // Something that left the group (setsid) may still hold the pipe: stop reading regardless.
  await reader.cancel().catch(() => {});
  await pump;
  const path = spill.finish();
  const output = buffer.omitted > 0 && path ? buffer.toString(spillLine(path, spill.bytes)) : buffer.toString();
  return { output, exitCode: proc.exitCode, signalCode: proc.signalCode === null ? null : String(proc.signalCode), ended };
}

async function readAll(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }, buffer: HeadTailBuffer, spill: SpillWriter): Promise<void> {
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      spill.append(value);
      buffer.append(decoder.decode(value, { stream: true }));
    }
  } catch {
    // Cancelled or a read error: keep what was read.
  }
  buffer.append(decoder.decode());
}

/** The tool_result for a finished command: output, then why it failed when it did. */
export function formatResult(result: CommandResult, timeoutMs: number): ToolOutput {
  const output = result.output.replace(/\n$/, "");
  const withNote = (note: string) => ({ content: output === "" ? note : `${output}\n${note}`, isError: true });
  if (result.ended === "timeout") return withNote(`Command timed out after ${timeoutMs} ms; it and every process it started were killed`);
  if (result.ended === "interrupted") return withNote("Command interrupted; it and every process it started were killed");
  if (result.exitCode === null) return withNote(`Command killed by ${result.signalCode ?? "a signal"}`);
  if (result.exitCode !== 0) return withNote(`Exit code ${result.exitCode}`);
  return { content: output === "" ? "(no output)" : output };
}
