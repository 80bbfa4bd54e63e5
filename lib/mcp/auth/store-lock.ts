/**
 * A cross-process lock beside the token store: `<file>.lock`, created exclusively, holding the
 * owner's pid. A lock whose owner is gone, or older than STALE_MS, is taken over, so a crashed
 * process never blocks logins for good.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";

const STALE_MS = 30_000;
const WAIT_MS = 15_000;
const POLL_MS = 15;
const EMPTY_GRACE_MS = 2_000;

function ownerAlive(lockPath: string): boolean {
  try {
    const pid = Number(readFileSync(lockPath, "utf8"));
    // No pid yet: its owner is between creating the file and writing to it, unless that was long ago.
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - statSync(lockPath).mtimeMs < EMPTY_GRACE_MS;
    process.kill(pid, 0);
    return Date.now() - statSync(lockPath).mtimeMs < STALE_MS;
  } catch (err) {
    // EPERM: the pid exists but belongs to someone else: alive. ENOENT: released meanwhile, so
    // removing "it" now could remove the next owner's fresh lock: try again instead.
    const code = (err as NodeJS.ErrnoException).code;
    return code === "EPERM" || code === "ENOENT";
  }
}

/**
 * Runs `fn` holding the lock for `file`.
 * @throws Error `token store is locked by another process` after WAIT_MS, or whatever `fn` throws.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lockPath = `${file}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
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
  try {
    return await fn();
  } finally {
    rmSync(lockPath, { force: true });
  }
}
