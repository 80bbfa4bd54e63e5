/**
 * Waiting for a process to disappear, for shutdown tests.
 */
import { isAlive } from "../support/run.ts";

/**
 * True once `pid` is gone (zombies count as gone, see `isAlive`). SIGKILL lands asynchronously
 * and a non-child's death has no event to await, so this polls, bounded (about 1 s).
 */
export async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && isAlive(pid); i++) await Bun.sleep(10);
  return !isAlive(pid);
}
