/**
 * `npm run release`: writes dist/release/ (or `--out DIR`) with one self-contained executable
 * per target (scripts/release/targets.ts), built in parallel with the flags and stamp of
 * `npm run build`, plus install.sh and SHA256SUMS over every file. `--base-url https://…` builds
 * that download origin into install.sh, for `curl … | sh` without `--from`.
 * Exit 1 with one stderr line per failure; the folder is then incomplete and has no SHA256SUMS.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildStamp, compileArgs, ROOT, type BuildStamp } from "./build.ts";
import { adhocSign, hasCoveringAdhocSignature } from "./release/adhoc-sign.ts";
import { writeSums } from "./release/checksums.ts";
import { runtimeFor } from "./release/runtimes.ts";
import { binaryName, TARGETS, type Target } from "./release/targets.ts";

export const INSTALL_SH = join(ROOT, "scripts", "release", "install.sh");

/** install.sh with `baseUrl` built in (its `BUILT_IN_FROM=""` line). @throws Error unless https. */
export function installScript(baseUrl?: string, text = readFileSync(INSTALL_SH, "utf8")): string {
  if (baseUrl === undefined) return text;
  if (!/^https:\/\/[^\s'"\\]+$/.test(baseUrl)) throw new Error(`--base-url must be an https:// URL without quotes or spaces: ${baseUrl}`);
  if (!text.includes('\nBUILT_IN_FROM=""\n')) throw new Error("install.sh has no BUILT_IN_FROM line to fill");
  return text.replace('\nBUILT_IN_FROM=""\n', `\nBUILT_IN_FROM='${baseUrl.replace(/\/+$/, "")}'\n`);
}

/** @returns a note when the binary had to be re-signed, else undefined. */
async function buildTarget(target: Target, out: string, stamp: BuildStamp): Promise<string | undefined> {
  const executablePath = await runtimeFor(target);
  const outfile = join(out, binaryName(target));
  const proc = Bun.spawn([process.execPath, ...compileArgs({ outfile, stamp, target: target.bunTarget, executablePath })], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) {
    const line = `${stderr}\n${stdout}`.split("\n").find((l) => /error/i.test(l)) ?? `exit code ${code}`;
    throw new Error(`${binaryName(target)}: bun build failed: ${line.trim()}`);
  }
  if (target.os !== "darwin") return undefined;
  const file = new Uint8Array(readFileSync(outfile));
  if (hasCoveringAdhocSignature(file)) return undefined;
  writeFileSync(outfile, adhocSign(file, "agent"), { mode: 0o755 });
  return `${binaryName(target)}: bun left a code signature that does not cover the executable; re-signed ad hoc`;
}

export interface ReleaseOptions {
  out: string;
  baseUrl?: string;
  stamp?: BuildStamp;
  targets?: readonly Target[];
}

export interface ReleaseResult {
  /** One line per failure; empty on success. */
  errors: string[];
  /** What was done beyond building (re-signing), one line each. */
  notes: string[];
}

/** Builds the release into `o.out` (emptied first). */
export async function release(o: ReleaseOptions): Promise<ReleaseResult> {
  const stamp = o.stamp ?? buildStamp();
  let script: string;
  try {
    script = installScript(o.baseUrl);
  } catch (error) {
    return { errors: [(error as Error).message], notes: [] };
  }
  rmSync(o.out, { recursive: true, force: true });
  mkdirSync(o.out, { recursive: true });
  const results = await Promise.allSettled((o.targets ?? TARGETS).map((t) => buildTarget(t, o.out, stamp)));
  const errors = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as Error).message] : []));
  const notes = results.flatMap((r) => (r.status === "fulfilled" && r.value ? [r.value] : []));
  if (errors.length > 0) return { errors, notes };
  writeFileSync(join(o.out, "install.sh"), script, { mode: 0o755 });
  writeSums(o.out);
  return { errors, notes };
}

if (import.meta.main) {
  let values: { out?: string; "base-url"?: string };
  try {
    ({ values } = parseArgs({ options: { out: { type: "string" }, "base-url": { type: "string" } } }));
  } catch (error) {
    process.stderr.write(`release: ${(error as Error).message} (usage: npm run release -- [--out DIR] [--base-url https://…])\n`);
    process.exit(2);
  }
  const out = resolve(values.out ?? join(ROOT, "dist", "release"));
  const stamp = buildStamp();
  const started = performance.now();
  const { errors, notes } = await release({ out, baseUrl: values["base-url"], stamp });
  for (const line of [...notes, ...errors]) process.stderr.write(`release: ${line}\n`);
  if (errors.length > 0) process.exit(1);
  const mb = (name: string) => `${(statSync(join(out, name)).size / 2 ** 20).toFixed(1)} MB`;
  const lines = [...TARGETS.map(binaryName), "install.sh", "SHA256SUMS"].map((n) => `  ${n.padEnd(26)} ${mb(n)}`);
  process.stdout.write(`release ${stamp.commit} (${stamp.date}) in ${out}, ${((performance.now() - started) / 1000).toFixed(1)} s:\n${lines.join("\n")}\n`);
}
