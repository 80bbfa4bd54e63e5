/**
 * A cross-process lock beside the token store: `<file>.lock`, holding the owner's pid. It is
 * created with its content in one step (a temporary file hard-linked to the lock name, which
 * fails when the lock exists), so nobody ever sees an empty lock and takes it for a dead one. A
 * lock whose owner is gone, or older than STALE_MS, is taken over, so a crashed process never
 * blocks logins for good.
 */
import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";

const STALE_MS = 30_000;
const WAIT_MS = 15_000;
const POLL_MS = 15;

function ownerAlive(lockPath: string): boolean {
  try {
    if (Date.now() - statSync(lockPath).mtimeMs >= STALE_MS) return false;
    const pid = Number(readFileSync(lockPath, "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return true; // unreadable but young: not ours to judge
    process.kill(pid, 0);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // EPERM: the pid exists but belongs to someone else. ENOENT: released meanwhile (try again).
    return code === "EPERM" || code === "ENOENT";
  }
}

/**
 * Runs `fn` holding the lock for `file`.
 * @throws Error `token store … is locked by another process` after WAIT_MS, or whatever `fn` throws.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lockPath = `${file}.lock`;
  const mine = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(mine, String(process.pid), { mode: 0o600 });
  const deadline = Date.now() + WAIT_MS;
  try {
    for (;;) {
      try {
        linkSync(mine, lockPath);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        if (!ownerAlive(lockPath)) {
          rmSync(lockPath, { force: true });
          continue;
        }
        if (Date.now() > deadline) throw new Error(`token store ${file} is locked by another process`);
        await Bun.sleep(POLL_MS);
      }
    }
  } finally {
    rmSync(mine, { force: true });
  }
  try {
    return await fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}
