/**
 * Shutdown on every exit path: a normal end, an error, --max-turns, an uncaught exception,
 * SIGINT, SIGTERM, SIGHUP. Cleanups (MCP servers) run once, whichever path comes first.
 */
type Cleanup = () => Promise<void>;
const cleanups = new Set<Cleanup>();
let running: Promise<void> | undefined;
const stopping = new AbortController();
let interruptHandler: (() => void) | undefined;
let installed = false;

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
  if (!(err instanceof Error)) return `error: ${String(err)}`;
  return `error: ${debug ? (err.stack ?? err.message) : err.message}`;
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
