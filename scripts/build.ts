/**
 * `npm run build`: compiles index.ts into dist/agent for this machine, stamped with the commit and
 * build date that `--version` prints (lib/cli/flags/version.ts). The release (scripts/release.ts)
 * and the benchmarks build with the same flags and stamp, so what is measured is what ships.
 * Beside the executable, `dist/agent.sources` lists the source files and folders it was built
 * from: what your_program.sh checks, without a process of its own, before it runs the executable.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");

/** The `bun build` flags of every agent executable, without entry, target and --outfile. */
// --splitting (ESM chunks, each loaded at its first import) lets a run load only the code it uses:
// `--version` starts as fast as a program that only prints a version (bench: release figure).
// unpdf/pdfjs stays out of the bundle: lib/files/pdf.ts embeds pdf.js as a file and hands it to unpdf,
// whose own import of it is then never reached.
export const BUILD_FLAGS: readonly string[] = ["--compile", "--minify", "--splitting", "--format=esm", "--bytecode", "--external", "unpdf/pdfjs"];

export interface BuildStamp {
  /** Short commit, with "-dirty" when the tree had changes, or "unknown" outside a git checkout. */
  commit: string;
  /** UTC build date, YYYY-MM-DD. */
  date: string;
}

function git(args: string[], cwd: string): string | undefined {
  try {
    const run = Bun.spawnSync(["git", ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    return run.exitCode === 0 ? run.stdout.toString().trim() : undefined;
  } catch {
    return undefined; // no git on PATH
  }
}

/**
 * The stamp of a build of the tree at `root`. Dirty means a tracked file differs from HEAD or an
 * untracked file is not ignored (either could be in the bundle). The date honours
 * SOURCE_DATE_EPOCH (seconds; reproducible-builds.org) so a rebuild can be byte-identical.
 */
export function buildStamp(root = ROOT, env: Record<string, string | undefined> = process.env): BuildStamp {
  const head = git(["rev-parse", "--short=7", "HEAD"], root);
  const status = head === undefined ? undefined : git(["status", "--porcelain"], root);
  const commit = head === undefined ? "unknown" : status === "" ? head : `${head}-dirty`;
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  const when = env.SOURCE_DATE_EPOCH && Number.isFinite(epoch) ? new Date(epoch * 1000) : new Date();
  return { commit, date: when.toISOString().slice(0, 10) };
}

/** `--define` flags that stamp `stamp` into the bundle. */
export function stampDefines(stamp: BuildStamp): string[] {
  return ["--define", `AGENT_BUILD_COMMIT=${JSON.stringify(stamp.commit)}`, "--define", `AGENT_BUILD_DATE=${JSON.stringify(stamp.date)}`];
}

export interface CompileOptions {
  outfile: string;
  stamp: BuildStamp;
  /** A Bun target such as "bun-linux-arm64"; the host's when absent. */
  target?: string;
  /** The target's Bun runtime, so `bun build` downloads nothing. */
  executablePath?: string;
}

/** The full `bun build` argv (after the bun executable) for one agent executable. */
export function compileArgs(o: CompileOptions): string[] {
  const args = ["build", ...BUILD_FLAGS, ...stampDefines(o.stamp)];
  if (o.target) args.push(`--target=${o.target}`);
  if (o.executablePath) args.push(`--compile-executable-path=${o.executablePath}`);
  return [...args, join(ROOT, "index.ts"), "--outfile", o.outfile];
}

/**
 * What makes a build stale, relative to `root`: index.ts, package.json, and lib/ with every folder
 * and file in it. A folder counts as `find -newer` counted it: a file added, removed or renamed
 * there changes the folder's own time.
 */
export function sourceEntries(root: string): string[] {
  const lib = readdirSync(join(root, "lib"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() || entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
  return ["index.ts", "package.json", "lib", ...lib];
}

/** Writes `<exe>.sources` (one path a line) after `exe` was built, so the list is never older than it. */
export function writeSourceList(root: string, exe: string): void {
  writeFileSync(`${exe}.sources`, `${sourceEntries(root).join("\n")}\n`);
}

if (import.meta.main) {
  const stamp = buildStamp();
  if (stamp.commit === "unknown") process.stderr.write("build: not a git checkout, --version will say commit unknown\n");
  const run = Bun.spawnSync([process.execPath, ...compileArgs({ outfile: join(ROOT, "dist/agent"), stamp })], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (run.exitCode === 0) writeSourceList(ROOT, join(ROOT, "dist/agent"));
  process.exit(run.exitCode ?? 1);
}
