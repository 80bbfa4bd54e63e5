/**
 * The release under test: built once per test file with `bun scripts/release.ts --out`, then each
 * Linux binary copied alone into an empty folder under the system temp folder (no node_modules
 * anywhere up the tree) and run with only the system PATH, natively or under qemu-user.
 */
import { copyFileSync, existsSync, linkSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../../scripts/build.ts";
import { BUN, tempDir } from "./run.ts";

/** The PATH a user's shell has on a Debian machine, without this checkout's tools. */
export const SYSTEM_PATH = "/usr/bin:/bin";
export const QEMU_AARCH64 = Bun.which("qemu-aarch64", { PATH: SYSTEM_PATH });
/** Debian's libc6-arm64-cross: the aarch64 dynamic loader and glibc qemu-user loads the binary with. */
export const AARCH64_SYSROOT = "/usr/aarch64-linux-gnu";
/**
 * Whether this machine can run the linux-arm64 build: qemu-user and the aarch64 glibc, two optional
 * system packages (`qemu-user libc6-arm64-cross` on Debian; .ci/run installs them). Without them its
 * runs are skipped with a note, as the session tests are without tmux.
 */
export const CAN_RUN_ARM64 = Boolean(QEMU_AARCH64) && existsSync(join(AARCH64_SYSROOT, "lib", "ld-linux-aarch64.so.1"));

/** Runs `npm run release`'s script into a fresh folder. @throws Error with its stderr when it fails. */
export async function buildRelease(): Promise<{ dir: string; seconds: number; stderr: string }> {
  const dir = join(tempDir("agent-release-"), "release");
  const started = performance.now();
  const proc = Bun.spawn([BUN, join(ROOT, "scripts/release.ts"), "--out", dir], { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`release failed (exit ${code}):\n${stderr}${stdout}`);
  return { dir, seconds: (performance.now() - started) / 1000, stderr };
}

/**
 * Puts `name` from the release alone into a new empty folder; returns the argv prefix that runs
 * it (qemu-aarch64 for an arm64 build). @throws Error when an arm64 build is asked for without qemu.
 */
export function placeAlone(release: string, name: string): string[] {
  const dir = tempDir("agent-alone-");
  for (let up = dir; up !== dirname(up); up = dirname(up)) {
    if (existsSync(join(up, "node_modules"))) throw new Error(`${up} holds a node_modules: the binary would not be alone`);
  }
  const exe = join(dir, "agent");
  // A hard link is the same bytes, alone in its folder, without writing another 110 MB.
  try {
    linkSync(join(release, name), exe);
  } catch {
    copyFileSync(join(release, name), exe);
  }
  if (!name.includes("arm64")) return [exe];
  if (!CAN_RUN_ARM64) {
    throw new Error("qemu-aarch64 or the aarch64 sysroot is missing: apt-get install qemu-user libc6-arm64-cross (.ci/run does)");
  }
  return [QEMU_AARCH64!, "-L", AARCH64_SYSROOT, exe];
}

/** A minimal user environment: system PATH, a fresh HOME and config folder, no color, and `extra`. */
export function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = tempDir("agent-home-");
  return { PATH: SYSTEM_PATH, HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude"), NO_COLOR: "1", LANG: "C.UTF-8", ...extra };
}

export interface ExeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `exe` (a placeAlone argv) with `args` in `cwd`; killed after `timeoutMs`. */
export async function runExe(
  exe: string[],
  args: string[],
  o: { cwd: string; env: Record<string, string>; stdin?: string; timeoutMs?: number },
): Promise<ExeRun> {
  const proc = Bun.spawn([...exe, ...args], {
    cwd: o.cwd,
    env: o.env,
    stdin: o.stdin === undefined ? "ignore" : new Blob([o.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), o.timeoutMs ?? 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}
