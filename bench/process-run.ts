/**
 * Runs one executable the way the figures need: timestamps (performance.now(), ms, the bench
 * process's clock) for spawn, first stdout byte and exit, and optionally the peak RSS of that
 * process alone, polled from /proc/<pid>/status while it runs.
 */
import { readFileSync } from "node:fs";

export interface ProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  /** performance.now() just before spawning, ms. */
  spawnedAt: number;
  /** When the first stdout bytes were read, ms; undefined when it printed nothing. */
  firstStdoutAt?: number;
  /** When the exit was observed, ms. */
  exitedAt: number;
  /** Highest VmHWM read from /proc while it ran, bytes: the process alone, no children. */
  polledPeakRss?: number;
}

export interface ProcessRunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Poll /proc/<pid>/status every this many ms for VmHWM (Linux only). */
  pollRssEveryMs?: number;
  /** SIGKILL after this many ms (default 60 000) so a hung run cannot hang the bench. */
  timeoutMs?: number;
}

/**
 * Spawns `argv` with stdin from /dev/null (so `-p` does not wait for piped input), reads stdout
 * and stderr to the end and resolves once the process has exited. Never rejects for a failing
 * process: the exit code is in the result.
 * @throws Error only when the executable cannot be spawned at all.
 */
export async function runProcess(argv: string[], opts: ProcessRunOptions): Promise<ProcessRun> {
  const env = Object.fromEntries(Object.entries(opts.env).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const spawnedAt = performance.now();
  const proc = Bun.spawn(argv, { cwd: opts.cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const killer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
  let firstStdoutAt: number | undefined;
  const readStdout = async () => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of proc.stdout) {
      firstStdoutAt ??= performance.now();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
  };
  let exited = false;
  const exit = proc.exited.then((code) => {
    exited = true;
    return { code, at: performance.now() };
  });
  const peak = opts.pollRssEveryMs ? pollPeakRss(proc.pid, opts.pollRssEveryMs, () => exited) : Promise.resolve(undefined);
  const [stdout, stderr, end, polledPeakRss] = await Promise.all([readStdout(), new Response(proc.stderr).text(), exit, peak]);
  clearTimeout(killer);
  return {
    code: end.code,
    stdout,
    stderr,
    spawnedAt,
    firstStdoutAt,
    exitedAt: end.at,
    polledPeakRss,
  };
}

/** VmHWM ("peak resident set size") of a live process in bytes, or undefined once it is gone. */
export function readVmHwm(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads VmHWM every `everyMs` until `done()`. VmHWM only grows, so the last reading is within
 * one poll interval of the true peak; a zombie has no VmHWM, which ends the polling too.
 */
async function pollPeakRss(pid: number, everyMs: number, done: () => boolean): Promise<number | undefined> {
  let peak: number | undefined;
  while (!done()) {
    const now = readVmHwm(pid);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
    await Bun.sleep(everyMs);
  }
  return peak;
}
