/**
 * What the numbers were measured on and at which revision, for the line above the table.
 */
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, release, totalmem } from "node:os";

/** "2 cores (Intel Xeon …), 23.5 GiB memory, Debian GNU/Linux 12 (Linux 6.1.0), bun 1.4.5". */
export function describeMachine(): string {
  const model = cpus()[0]?.model.trim();
  const cores = `${availableParallelism()} cores${model ? ` (${model})` : ""}`;
  const memory = `${(totalmem() / 2 ** 30).toFixed(1)} GiB memory`;
  return `${cores}, ${memory}, ${osName()} (${process.platform} ${release()}), bun ${Bun.version}`;
}

/**
 * "7.34 / 4.77 / 2.59": the 1, 5 and 15 minute load averages. Above the core count, other
 * processes competed for the CPU during the run and the timings are noisier.
 */
export function describeLoad(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ");
}

function osName(): string {
  try {
    const match = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync("/etc/os-release", "utf8"));
    if (match?.[1]) return match[1];
  } catch {
    // Not Linux, or a minimal image: the platform name below is enough.
  }
  return process.platform;
}

/**
 * The commit being measured ("7fe4acb"), plus "+ uncommitted changes" when the working tree
 * differs; "unknown" outside a git checkout. Reads git state only.
 */
export function describeRevision(root: string): string {
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
  const head = git("rev-parse", "--short", "HEAD");
  if (head.exitCode !== 0) return "unknown";
  const dirty = git("status", "--porcelain").stdout.toString().trim() !== "";
  return `${head.stdout.toString().trim()}${dirty ? " + uncommitted changes" : ""}`;
}
