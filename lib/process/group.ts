/**
 * Ending a whole process group: what a Bash command or an MCP server starts shares the group of
 * the `detached` (setsid) process we spawned, so signalling the negative pid reaches all of them.
 * Groups in use are tracked, so that none outlives this process however it exits. Shared by the
 * Bash tool and the MCP stdio transport; it knows nothing about either.
 */
import { readdirSync, readFileSync } from "node:fs";

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
 * is gone or `graceMs` (ms) have passed; then up to `graceMs` more for the killed ones to finish
 * dying (on a loaded machine a SIGKILLed process can take a while to be gone). A group can stay
 * "present" through zombies whose parent never reaps them; SIGKILL on those is harmless. Never throws.
 */
export async function killProcessGroup(pgid: number, graceMs = 500): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  if (await goneWithin(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  await goneWithin(pgid, graceMs);
}

/** Polls (no event tells us when unrelated processes exit) until group `pgid` is gone or `ms` ms have passed. */
async function goneWithin(pgid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 25) {
    await Bun.sleep(25);
    if (!signalGroup(pgid, 0) || onlyZombies(pgid)) return true;
  }
  return false;
}

/**
 * True when every process left in group `pgid` has already died and only waits to be reaped: in a
 * container whose PID 1 reaps nobody, a killed command's orphans stay zombies for good, and
 * waiting for them would hold every interrupt for the whole grace. Linux only (/proc); false elsewhere.
 */
function onlyZombies(pgid: number): boolean {
  if (process.platform !== "linux") return false;
  let members = 0;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      } catch {
        continue; // gone meanwhile
      }
      // `pid (comm) state ppid pgrp …`: comm may hold spaces and parentheses, so read after the last ")".
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) !== pgid) continue;
      if (state !== "Z" && state !== "X") return false;
      members++;
    }
  } catch {
    return false;
  }
  return members > 0;
}

const trackedGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Marks process group `pgid` as ours until the returned function is called. A detached group
 * gets no signal when we die (SIGINT in a terminal reaches only the foreground group; a signal
 * handler ends us with process.exit while the command still runs), so an `exit` hook sends
 * SIGKILL to every group still tracked: that hook is synchronous, leaving no time for SIGTERM.
 */
export function trackGroup(pgid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const group of trackedGroups) signalGroup(group, "SIGKILL");
    });
  }
  trackedGroups.add(pgid);
  return () => trackedGroups.delete(pgid);
}
