/**
 * Ending a whole process group: a shell command's children and grandchildren share the group
 * of the `detached` (setsid) shell, so signalling the negative pid reaches all of them.
 */

/** Sends `signal` to process group `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to every process in group `pgid`, then SIGKILL to whatever is left once the group
 * is gone or `graceMs` (ms) have passed. A group can stay "present" through zombies whose parent
 * never reaps them; SIGKILL on those is harmless. Never throws.
 */
export async function killProcessGroup(pgid: number, graceMs = 500): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  // No event tells us when unrelated processes exit, so poll the group's existence.
  for (let waited = 0; waited < graceMs; waited += 25) {
    await Bun.sleep(25);
    if (!signalGroup(pgid, 0)) return;
  }
  signalGroup(pgid, "SIGKILL");
}
