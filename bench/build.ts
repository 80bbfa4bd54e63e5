/**
 * Builds the executables the figures run into bench/.tmp/ (gitignored): the agent exactly as
 * `npm run build` (scripts/build.ts) builds it, the same with `--bytecode` toggled, and, with the
 * product's flags so both sides pay the same start-up, the baseline handshake script and an
 * empty program.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUILD_FLAGS, buildStamp, stampDefines } from "../scripts/build.ts";

export const ROOT = resolve(import.meta.dir, "..");
export const TMP = join(import.meta.dir, ".tmp");

export interface Build {
  /** e.g. "npm run build (--compile --minify)". */
  label: string;
  /** The `bun build` flags used, without entry and --outfile. */
  flags: string[];
  /** The executable, when the build succeeded. */
  path?: string;
  /** One line saying why the build failed. */
  error?: string;
}

/** The flags of every agent executable (scripts/build.ts), e.g. ["--compile", "--minify", "--bytecode"]. */
export function productBuildFlags(): string[] {
  return [...BUILD_FLAGS];
}

/** Same flags with `--bytecode` added, or removed when present. */
export function toggleBytecode(flags: readonly string[]): string[] {
  return flags.includes("--bytecode") ? flags.filter((f) => f !== "--bytecode") : [...flags, "--bytecode"];
}

/** Compiles `entry` (relative to the repository root) with `flags`, stamped as a release is, into bench/.tmp/`name`. Never throws. */
export async function compile(entry: string, name: string, flags: string[], label: string): Promise<Build> {
  mkdirSync(TMP, { recursive: true });
  const outfile = join(TMP, name);
  const proc = Bun.spawn([process.execPath, "build", ...flags, ...stampDefines(buildStamp()), entry, "--outfile", outfile], {
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
export const EXTRA_VARIANTS: string[][] = [["--compile", "--minify", "--bytecode"]];

/** Builds every executable (in sequence: two cores are better spent on one link at a time). */
export async function buildAll(): Promise<Builds> {
  const flags = productBuildFlags();
  const other = toggleBytecode(flags);
  const product = await compile("index.ts", "agent", flags, `npm run build (${flags.join(" ")})`);
  const variant = await compile("index.ts", other.includes("--bytecode") ? "agent-bytecode" : "agent-no-bytecode", other, other.join(" "));
  const rawHandshake = await compile("bench/raw-handshake.ts", "raw-handshake", flags, `raw handshake (${flags.join(" ")})`);
  const empty = await compile("bench/empty-program.ts", "empty-program", flags, `empty program (${flags.join(" ")})`);
  const extras: Build[] = [];
  for (const [i, extra] of EXTRA_VARIANTS.entries()) extras.push(await compile("index.ts", `agent-extra-${i + 1}`, extra, extra.join(" ")));
  return { product, variant, rawHandshake, empty, extras };
}
