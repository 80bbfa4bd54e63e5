/**
 * One writer per session transcript: a folder `<transcript>.lock` (made with mkdir(2), which
 * fails when it exists) holding the owner's pid, kept for as long as the process writes the
 * session and removed when it ends. A second process resuming the same session finds it held and
 * leaves the file alone. A lock whose owner is gone (killed: no exit hook ran) is taken over at
 * once; one without a readable pid is taken over once it is 10 s old.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MkdirLockPolicy, tryMkdirLock } from "../../files/mkdir-lock.ts";

/** A lock with no readable pid this old (ms) is a crashed taker's. */
const UNOWNED_STALE_MS = 10_000;

const held = new Set<string>();
let exitHookInstalled = false;

/**
 * Takes the lock of transcript `path` for this process (re-entrant within it). Returns the
 * function that releases it, or, when another live process holds it, a reason naming that pid.
 * The lock is released at exit on its own.
 * @throws Error when the lock folder cannot be made for another reason (a read-only folder).
 */
export function lockTranscript(path: string): (() => void) | string {
  const lock = `${path}.lock`;
  if (held.has(lock)) return () => release(lock);
  const owner = tryMkdirLock(lock, TRANSCRIPT_LOCK) ? process.pid : ownerOf(lock);
  if (owner === process.pid) {
    hold(lock);
    return () => release(lock);
  }
  if (owner !== undefined && alive(owner)) return `it is being written by another process (pid ${owner})`;
  if (owner === undefined && !older(lock, UNOWNED_STALE_MS)) return "it is being opened by another process";
  return "its lock could not be taken";
}

/** A lock is stale once its owner is gone, or, without a readable pid, once it is 10 s old; ours is never stale. */
const TRANSCRIPT_LOCK: MkdirLockPolicy = {
  stale(lock) {
    const owner = ownerOf(lock);
    if (owner === process.pid) return false;
    return owner === undefined ? older(lock, UNOWNED_STALE_MS) : !alive(owner);
  },
  remove: (lock) => rmSync(lock, { recursive: true, force: true }),
  claim: (lock) => writeFileSync(join(lock, "pid"), String(process.pid)),
  rounds: 3,
  mode: 0o700,
};

function hold(lock: string): void {
  held.add(lock);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Synchronous, as everything in an exit hook must be.
  process.on("exit", () => {
    for (const l of held) rmSync(l, { recursive: true, force: true });
  });
}

function release(lock: string): void {
  if (!held.delete(lock)) return;
  rmSync(lock, { recursive: true, force: true });
}

function ownerOf(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lock, "pid"), "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function older(lock: string, ms: number): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > ms;
  } catch {
    return true;
  }
}
