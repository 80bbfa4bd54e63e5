/**
 * Whether the OS sandbox's tests can run here (bubblewrap on PATH and user, PID and network
 * namespaces allowed), asked the way the agent asks; the tests skip with one line when not.
 */
import { sandboxAvailability } from "../../lib/sandbox/availability.ts";

const availability = sandboxAvailability();

/** True when bwrap runs here; otherwise prints one line naming why, once per file that asks. */
export function sandboxRuns(suite: string): boolean {
  if (availability.ok) return true;
  console.log(`skipping ${suite}: ${availability.reason} (apt-get install bubblewrap)`);
  return false;
}

/** Process ids of running processes whose command line holds `marker` (zombies left out). */
export function processesWith(marker: string): number[] {
  const out = Bun.spawnSync(["ps", "-eo", "pid=,stat=,args="]).stdout.toString();
  return out
    .split("\n")
    .filter((line) => line.includes(marker) && !/^\s*\d+\s+Z/.test(line) && !line.includes("ps -eo"))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}
