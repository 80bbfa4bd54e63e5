/**
 * Waiting for what a test can observe but not await (a file appearing, a process gone, a log line):
 * poll until it holds, with a deadline generous enough for a busy machine, and fail naming what
 * never happened. A passing test waits only as long as the event takes; the deadline only ends
 * a test that would otherwise hang.
 */

/** How long `until` waits by default (ms): far past any event a loaded machine still delivers. */
export const DEADLINE_MS = 60_000;
/** Pause between two checks (ms). */
const POLL_MS = 20;

/**
 * Resolves once `predicate` holds (a truthy value, returned). @throws after `timeoutMs`, naming
 * `what` (or the predicate's source) so the failure says which event never came.
 */
export async function until<T>(predicate: () => T | Promise<T>, what?: string, timeoutMs = DEADLINE_MS): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what ?? predicate.toString()}; it never happened`);
    await Bun.sleep(POLL_MS);
  }
}

/**
 * A gate letting at most `n` bodies run at once (the rest queue): concurrent tests that each start
 * several processes, kept from starving each other on a small machine.
 */
export function slots(n: number): <T>(body: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: (() => void)[] = [];
  return async (body) => {
    if (running >= n) await new Promise<void>((resolve) => queue.push(resolve));
    else running++;
    try {
      return await body();
    } finally {
      // Hand the slot straight to the next in line, or free it.
      const next = queue.shift();
      if (next) next();
      else running--;
    }
  };
}
