/**
 * Bun's runtime for a cross target, so `bun build --compile` downloads nothing itself: the
 * `@oven/bun-<target>` package at the version and sha512 integrity package-lock.json pins (the
 * pinned `bun` package depends on each optionally; npm installs only this machine's). An
 * installed copy is used as is; another is fetched with `npm pack` (npm's cache and registry
 * settings apply), checked against the lock's integrity, and unpacked into node_modules/.cache.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { ROOT } from "../build.ts";
import type { Target } from "./targets.ts";

export const RUNTIME_CACHE = join(ROOT, "node_modules", ".cache", "agent-release");

interface LockEntry {
  version: string;
  integrity: string;
}

/** The lock's entry for `pkg`. @throws Error when the lock does not pin it. */
export function lockEntry(pkg: string, lock: unknown = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"))): LockEntry {
  const entry = (lock as { packages?: Record<string, Partial<LockEntry>> }).packages?.[`node_modules/${pkg}`];
  if (!entry?.version || !entry.integrity?.startsWith("sha512-")) throw new Error(`package-lock.json pins no version and sha512 integrity for ${pkg}`);
  return { version: entry.version, integrity: entry.integrity };
}

/** True when `bytes` hash to the Subresource-Integrity string `integrity` ("sha512-<base64>"). */
export function matchesIntegrity(bytes: Uint8Array, integrity: string): boolean {
  return integrity === `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
}

async function run(argv: string[], cwd: string): Promise<string> {
  const proc = Bun.spawn(argv, { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} failed (exit ${code}): ${err.trim().split("\n").at(-1) ?? ""}`);
  return out;
}

/**
 * The path of `bin/bun` for `target`, fetching and verifying it when this machine lacks it;
 * undefined when the running bun is that runtime.
 * @throws Error when the lock does not pin it at this bun's version, npm cannot fetch it, or its
 * bytes do not match the lock.
 */
export async function runtimeFor(target: Target, cache = RUNTIME_CACHE): Promise<string | undefined> {
  const pin = lockEntry(target.npmPackage);
  // The bundle's bytecode is made by this bun and only loads in a runtime of the same version.
  if (pin.version !== Bun.version) throw new Error(`${target.npmPackage} is pinned at ${pin.version}, but the build runs bun ${Bun.version}: pin both alike`);
  // This machine's target at the pinned version: the running bun is that runtime (npm checked it).
  if (target.bunTarget === `bun-${process.platform}-${process.arch}` && Bun.version === pin.version) return undefined;
  const installed = join(ROOT, "node_modules", target.npmPackage);
  if (existsSync(join(installed, "bin", "bun")) && JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version === pin.version) {
    return join(installed, "bin", "bun");
  }
  const dir = join(cache, `${basename(target.npmPackage)}-${pin.version}`);
  const bun = join(dir, "bun");
  if (existsSync(bun)) return bun;
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, ".fetch-"));
  try {
    const packed = JSON.parse(
      await run(["npm", "pack", `${target.npmPackage}@${pin.version}`, "--json", "--prefer-offline", "--pack-destination", work], work),
    );
    const tarball = join(work, packed[0].filename);
    if (!matchesIntegrity(readFileSync(tarball), pin.integrity)) {
      throw new Error(`${target.npmPackage}@${pin.version}: the tarball npm fetched does not match package-lock.json's integrity`);
    }
    await run(["tar", "-xzf", tarball, "-C", work, "package/bin/bun"], work);
    chmodSync(join(work, "package", "bin", "bun"), 0o755);
    mkdirSync(dir, { recursive: true });
    renameSync(join(work, "package", "bin", "bun"), bun);
    return bun;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
