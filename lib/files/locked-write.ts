/**
 * The one rule for every file we write that another process may write too (`~/.claude.json`,
 * `.mcp.json`, `settings.local.json`, the approvals file, the OAuth token store): take the lock,
 * re-read, apply the change, write atomically (a temporary file in the same folder, then rename),
 * re-checking just before the rename that the file still holds what was read (redoing the change
 * if not), release.
 *
 * The lock is Claude Code's own, so the two programs exclude each other: a folder `<file>.lock`
 * beside the file's real path (symlinks resolved), made with mkdir(2), which fails when it exists,
 * and removed with rmdir(2): the `proper-lockfile` package's protocol, which Claude Code's
 * executable follows for `~/.claude.json` (mkdir, utimes, rename of the temporary file, rmdir, as
 * strace shows). A lock whose mtime is older than 10 s is stale (its holder died) and is taken
 * over; a holder that keeps it longer (the async form) touches its mtime every 5 s.
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type MkdirLockPolicy, tryMkdirLock } from "./mkdir-lock.ts";

/** The file could not be locked, read or written; the message is one line naming the file. */
export class ConfigWriteError extends Error {}

/** A lock untouched for this long (ms) belongs to a holder that died (proper-lockfile's default `stale`). */
export const LOCK_STALE_MS = 10_000;
/** How often a long holder touches its lock (ms): half the stale time, as proper-lockfile does. */
const LOCK_REFRESH_MS = LOCK_STALE_MS / 2;
/** Longest wait for a live holder before giving up (ms): past the stale time, so a dead one is always taken over first. */
const LOCK_WAIT_MS = 15_000;
/** How many times a write is redone when the file changed between our read and our rename. */
const ATTEMPTS = 5;

export interface LockedWriteOptions {
  /** Permission bits for the file on every write (0o600 for files holding secrets); absent → kept, or the umask's default for a new file. */
  mode?: number;
}

/**
 * Changes `file` under the rule above. `change` gets the file's current text (undefined when it
 * does not exist) and returns the new text, or undefined to leave the file as it is; it may run
 * again (on a newer text) when another writer came between our read and our rename, so it must
 * be a pure function of its input. Writing through a symlink writes its target.
 * Returns true when the file was written.
 * @throws ConfigWriteError when the lock is held by a live process for 15 s, the file cannot be
 *   read or written, or it kept changing under us (5 attempts); whatever `change` throws (nothing
 *   is written then).
 */
export function lockedWrite(file: string, change: (current: string | undefined) => string | undefined, opts: LockedWriteOptions = {}): boolean {
  const target = realPath(file);
  return withFileLockSync(target, () => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const before = readText(target);
      const after = change(before);
      if (after === undefined || after === before) return false;
      if (writeAtomically(target, after, before, opts.mode)) return true;
    }
    throw new ConfigWriteError(`${file}: kept changing while we wrote it (${ATTEMPTS} attempts); not changed`);
  });
}

/**
 * Runs `fn` holding `file`'s lock (see above), synchronously: for a read, change and write that
 * take milliseconds, so the lock needs no refreshing. Waits (polling) while a live holder has it.
 * @throws ConfigWriteError after 15 s of a live holder; whatever `fn` throws (the lock is released).
 */
export function withFileLockSync<T>(file: string, fn: () => T): T {
  const lock = lockPath(file);
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!tryLock(lock)) {
    if (Date.now() > deadline) throw lockedError(file, lock);
    Bun.sleepSync(pollMs());
  }
  try {
    return fn();
  } finally {
    unlock(lock);
  }
}

/**
 * `withFileLockSync` for work that waits (a token refresh over the network): the lock's mtime is
 * touched every 5 s meanwhile, so no one takes it for a dead holder's.
 * @throws ConfigWriteError after 15 s of a live holder; whatever `fn` throws (the lock is released).
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lock = lockPath(file);
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!tryLock(lock)) {
    if (Date.now() > deadline) throw lockedError(file, lock);
    await Bun.sleep(pollMs());
  }
  const refresh = setInterval(() => touch(lock), LOCK_REFRESH_MS);
  try {
    return await fn();
  } finally {
    clearInterval(refresh);
    unlock(lock);
  }
}

/**
 * Writes `text` next to `file`, then renames it over `file` unless the file no longer holds
 * `expected` (undefined: absent) — another writer that does not take the lock came first.
 * Returns false in that case, having written nothing.
 * @throws ConfigWriteError when the temporary file cannot be written or renamed.
 */
export function writeAtomically(file: string, text: string, expected: string | undefined, mode: number | undefined): boolean {
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    const keep = mode ?? existingMode(file);
    writeFileSync(temp, text, { mode: keep ?? 0o666 });
    // The umask may have narrowed the mode: set it exactly.
    if (keep !== undefined) chmodSync(temp, keep);
    if (readText(file) !== expected) {
      rmSync(temp, { force: true });
      return false;
    }
    renameSync(temp, file);
    return true;
  } catch (err) {
    rmSync(temp, { force: true });
    if (err instanceof ConfigWriteError) throw err;
    throw new ConfigWriteError(`${file}: cannot write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The file's text, or undefined when it does not exist. @throws ConfigWriteError for any other read error. */
export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigWriteError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The path a write lands on: a symlink's target; the path itself when it does not exist yet. */
export function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function lockPath(file: string): string {
  return `${realPath(file)}.lock`;
}

/** proper-lockfile's policy: a lock untouched for 10 s is stale; it is an empty folder, removed with rmdir. */
const FILE_LOCK: MkdirLockPolicy = { stale: isStale, remove: removeStale, rounds: 2, makeParent: true };

/** One mkdir: true when the lock is ours now. A stale lock is removed and the mkdir tried again once. */
function tryLock(lock: string): boolean {
  try {
    return tryMkdirLock(lock, FILE_LOCK);
  } catch (err) {
    throw new ConfigWriteError(`${lock}: cannot lock (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function isStale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false; // released meanwhile: the next mkdir will tell
  }
}

function removeStale(lock: string): void {
  try {
    rmdirSync(lock);
  } catch {
    // Another waiter removed it first, or it is not an empty folder (not a lock of this protocol).
  }
}

function touch(lock: string): void {
  try {
    const now = new Date();
    utimesSync(lock, now, now);
  } catch {
    // Taken over as stale (we were stopped for 10 s): the write still re-checks before its rename.
  }
}

function unlock(lock: string): void {
  try {
    rmdirSync(lock);
  } catch {
    // Already gone (taken over as stale): nothing of ours is left to release.
  }
}

/** 5-25 ms, so waiters do not poll in step. */
function pollMs(): number {
  return 5 + Math.floor(Math.random() * 20);
}

function lockedError(file: string, lock: string): ConfigWriteError {
  return new ConfigWriteError(`${file}: locked by another program for ${LOCK_WAIT_MS / 1000} s (${lock}); not changed`);
}

function existingMode(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}
