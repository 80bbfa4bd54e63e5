/**
 * Shutdown on every exit path: a normal end, an error, --max-turns, an uncaught exception,
 * SIGINT, SIGTERM, SIGHUP. Cleanups (MCP servers) run once, whichever path comes first.
 */
import { writeSync } from "node:fs";
import { pendingWork } from "../shared/pending-work.ts";
import { ourColoursOnly } from "../shared/terminal-text.ts";

type Cleanup = () => Promise<void>;
const cleanups = new Set<Cleanup>();
let running: Promise<void> | undefined;
const stopping = new AbortController();
let interruptHandler: (() => void) | undefined;
let installed = false;
/** Set when we exit on purpose (a signal, a fatal error): work cut short then is no bug. */
let exitingOnPurpose = false;

/** Aborted as soon as shutdown starts: the loop stops instead of sending results to the model. */
export const shutdownSignal: AbortSignal = stopping.signal;

/** Registers a cleanup; returns a function that unregisters it. */
export function onShutdown(fn: Cleanup): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Runs every cleanup concurrently, once; later calls wait for the same run. Never throws. */
export function shutdown(): Promise<void> {
  if (!stopping.signal.aborted) stopping.abort(new Error("shutting down"));
  running ??= Promise.allSettled([...cleanups].map((fn) => fn())).then(() => undefined);
  return running;
}

/** Shuts down, then exits with `code`. */
export async function exitAfterShutdown(code: number): Promise<never> {
  exitingOnPurpose = true;
  await shutdown();
  process.exit(code);
}

/**
 * Hands SIGINT (Ctrl-C) to `fn` instead of exiting, or back to the default (shut down, exit 130)
 * with undefined. The interactive terminal takes it over once its prompt exists: Ctrl-C then
 * interrupts a turn. Before that (while servers connect) Ctrl-C must still shut them down.
 */
export function setInterruptHandler(fn: (() => void) | undefined): void {
  interruptHandler = fn;
}

/**
 * One line for an error nobody handled: `error: <message>`, or the stack when the command line
 * has --debug (read from process.argv, since this also serves errors thrown before flags parse).
 */
export function fatalLine(err: unknown): string {
  const debug = process.argv.includes("--debug");
  // The message may quote a server, a file or a hook: only our colours reach the terminal.
  if (!(err instanceof Error)) return ourColoursOnly(`error: ${String(err)}`);
  return ourColoursOnly(`error: ${debug ? (err.stack ?? err.message) : err.message}`);
}

const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Installs handlers so a signal or an uncaught error still shuts servers down: SIGINT exits 130
 * (unless `setInterruptHandler` took it over), SIGTERM 143, SIGHUP 129, an uncaught error 1
 * after one `fatalLine` on stderr. Installing twice is a no-op.
 */
export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of Object.entries(SIGNAL_CODES)) {
    process.on(signal, () => {
      if (signal === "SIGINT" && interruptHandler) return interruptHandler();
      // Ctrl-C is a person's: an exit code alone does not tell them what stopped.
      if (signal === "SIGINT") process.stderr.write(`${interruptedLine(pendingWork())}\n`);
      void exitAfterShutdown(code);
    });
  }
  const fatal = (err: unknown) => {
    process.stderr.write(fatalLine(err) + "\n");
    void exitAfterShutdown(1);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
}

/** The line for Ctrl-C outside the session: the run stopped, and what was still under way. */
export function interruptedLine(pending: string[]): string {
  return `interrupted (Ctrl-C): the run stopped before it finished${pending.length ? `, during ${pending.join(", ")}` : ""}`;
}

/** The first words of the backstop's line: tests fail any run whose stderr holds them. */
export const SILENT_END = "error: the run ended with work unfinished";

/**
 * The backstop for bugs that would end a run in silence: when the process exits (the event loop
 * emptied) while work marked with `beginWork` is still pending and no exit path chose to end it,
 * writes one stderr line naming that work and makes the exit code 1. From `process.on("exit")`,
 * synchronously (writeSync: nothing asynchronous runs there), because Bun has not always emitted
 * `beforeExit`. Installing twice is a no-op.
 */
export function installSilenceBackstop(): void {
  if (backstopInstalled) return;
  backstopInstalled = true;
  process.on("exit", () => {
    const left = pendingWork();
    if (exitingOnPurpose || left.length === 0) return;
    try {
      writeSync(2, `${SILENT_END} (a bug; please report it): ${left.join(", ")} never finished\n`);
    } catch {
      // stderr closed: the exit code still says it.
    }
    process.exitCode = 1;
  });
}
let backstopInstalled = false;
