/**
 * Builds the executables the figures run into bench/.tmp/ (gitignored): the agent exactly as
 * package.json's `build` script builds it, the same with `--bytecode` toggled, and, with the
 * product's flags so both sides pay the same start-up, the baseline handshake script and an
 * empty program.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");
export const TMP = join(import.meta.dir, ".tmp");

export interface Build {
  /** e.g. "package.json build (--compile --minify)". */
  label: string;
  /** The `bun build` flags used, without entry and --outfile. */
  flags: string[];
  /** The executable, when the build succeeded. */
  path?: string;
  /** One line saying why the build failed. */
  error?: string;
}

/**
 * The flags of package.json's `build` script (e.g. ["--compile", "--minify"]).
 * @throws Error when the script is missing or is not a single `bun build … --outfile …` command.
 */
export function productBuildFlags(packageJson = readFileSync(join(ROOT, "package.json"), "utf8")): string[] {
  const script: unknown = JSON.parse(packageJson).scripts?.build;
  if (typeof script !== "string") throw new Error('package.json has no "build" script');
  const words = script.trim().split(/\s+/);
  if (words[0] !== "bun" || words[1] !== "build" || /[;&|]/.test(script)) {
    throw new Error(`package.json "build" is not a single bun build command: ${script}`);
  }
  const flags: string[] = [];
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--outfile") i++;
    else if (word.startsWith("--outfile=")) continue;
    else if (word.startsWith("-")) flags.push(word);
  }
  return flags;
}

/** Same flags with `--bytecode` added, or removed when present. */
export function toggleBytecode(flags: readonly string[]): string[] {
  return flags.includes("--bytecode") ? flags.filter((f) => f !== "--bytecode") : [...flags, "--bytecode"];
}

/** Compiles `entry` (relative to the repository root) with `flags` into bench/.tmp/`name`. Never throws. */
export async function compile(entry: string, name: string, flags: string[], label: string): Promise<Build> {
  mkdirSync(TMP, { recursive: true });
  const outfile = join(TMP, name);
  const proc = Bun.spawn([process.execPath, "build", ...flags, entry, "--outfile", outfile], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code === 0) return { label, flags, path: outfile };
  const first = `${stderr}\n${stdout}`.split("\n").find((l) => /error/i.test(l)) ?? `exit code ${code}`;
  return { label, flags, error: `bun build ${entry} failed: ${first.trim()}` };
}

export interface Builds {
  /** The agent as the build script makes it: every agent figure runs this one. */
  product: Build;
  /** The agent with --bytecode toggled, for the start-up comparison. */
  variant: Build;
  /** bench/raw-handshake.ts compiled with the product's flags. */
  rawHandshake: Build;
  /** bench/empty-program.ts compiled with the product's flags: a compiled executable's floor. */
  empty: Build;
  /** Further build candidates for the start-up table only (ESM code splitting with bytecode). */
  extras: Build[];
}

/** Flags tried in addition to the product's and its bytecode twin. */
export const EXTRA_VARIANTS: string[][] = [["--compile", "--minify", "--splitting", "--format=esm", "--bytecode"]];

/** Builds every executable (in sequence: two cores are better spent on one link at a time). */
export async function buildAll(): Promise<Builds> {
  let flags: string[];
  try {
    flags = productBuildFlags();
  } catch (error) {
    const failed = (label: string): Build => ({ label, flags: [], error: (error as Error).message });
    return {
      product: failed("package.json build"),
      variant: failed("bytecode variant"),
      rawHandshake: failed("raw handshake"),
      empty: failed("empty program"),
      extras: [],
    };
  }
  const other = toggleBytecode(flags);
  const product = await compile("index.ts", "agent", flags, `package.json build (${flags.join(" ")})`);
  const variant = await compile("index.ts", other.includes("--bytecode") ? "agent-bytecode" : "agent-no-bytecode", other, other.join(" "));
  const rawHandshake = await compile("bench/raw-handshake.ts", "raw-handshake", flags, `raw handshake (${flags.join(" ")})`);
  const empty = await compile("bench/empty-program.ts", "empty-program", flags, `empty program (${flags.join(" ")})`);
  const extras: Build[] = [];
  for (const [i, extra] of EXTRA_VARIANTS.entries()) extras.push(await compile("index.ts", `agent-extra-${i + 1}`, extra, extra.join(" ")));
  return { product, variant, rawHandshake, empty, extras };
}
