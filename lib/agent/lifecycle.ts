/**
 * Shutdown on every exit path: a normal end, an error, --max-turns, an uncaught exception,
 * SIGINT, SIGTERM, SIGHUP. Cleanups (MCP servers) run once, whichever path comes first.
 */
type Cleanup = () => Promise<void>;
const cleanups = new Set<Cleanup>();
let running: Promise<void> | undefined;
const stopping = new AbortController();

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

const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * Installs handlers so a signal or an uncaught error still shuts servers down.
 * `interactive` leaves SIGINT to the session (it interrupts a turn rather than exiting).
 */
export function installExitHandlers({ interactive = false } = {}): void {
  for (const [signal, code] of Object.entries(SIGNAL_CODES)) {
    if (interactive && signal === "SIGINT") continue;
    process.on(signal, () => void exitAfterShutdown(code));
  }
  const fatal = (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    void exitAfterShutdown(1);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
}
