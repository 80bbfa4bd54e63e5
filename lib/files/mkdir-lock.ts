/**
 * One mkdir(2) lock, written once: a folder `<path>.lock` made with mkdir, which fails when it
 * exists, so exactly one process holds it. What makes a lock found in place stale (its holder
 * gone) and how a stale one is removed are the caller's policy: the lock-and-merge rule of the
 * files we share with Claude Code (locked-write.ts: untouched for 10 s, an empty folder removed
 * with rmdir) and the one writer per session transcript (sessions/transcript-lock.ts: the owner's
 * pid inside, taken over as soon as that process is gone).
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export interface MkdirLockPolicy {
  /** Whether a lock found in place belongs to a holder that is gone. */
  stale(lock: string): boolean;
  /** Removes a stale lock; never throws (another taker may have removed it first). */
  remove(lock: string): void;
  /** Fills the lock once it is ours (the owner's pid). */
  claim?(lock: string): void;
  /** mkdir attempts, a stale lock taken over between them. */
  rounds: number;
  /** Permission bits of the lock folder. */
  mode?: number;
  /** Makes the lock's parent folder when it does not exist (then tries again, in the same round count). */
  makeParent?: boolean;
}

/**
 * One try at the lock: true when it is ours now; false when a live holder has it, or a stale one
 * could not be taken over in `rounds` attempts.
 * @throws the mkdir error for anything but an existing lock (and a missing parent with `makeParent`).
 */
export function tryMkdirLock(lock: string, policy: MkdirLockPolicy): boolean {
  for (let round = 0; round < policy.rounds; round++) {
    try {
      mkdirSync(lock, policy.mode === undefined ? undefined : { mode: policy.mode });
      policy.claim?.(lock);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && policy.makeParent) mkdirSync(dirname(lock), { recursive: true });
      else if (code !== "EEXIST") throw err;
      else if (!policy.stale(lock)) return false;
      else policy.remove(lock);
    }
  }
  return false;
}
