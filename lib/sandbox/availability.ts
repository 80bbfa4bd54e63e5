/**
 * Whether the sandbox can start here: `bwrap` on PATH (where Claude Code looks for it too) and the
 * kernel letting it make its namespaces, tried once per process with the very flags every call uses.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { BASE_ARGS } from "./bwrap.ts";

export type Availability = { ok: true; bwrap: string } | { ok: false; reason: string };

let cached: Map<string, Availability> | undefined;

/** The first executable `name` in `path` (a PATH value), or undefined. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(":")) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** Whether bubblewrap runs here with our namespaces; the reason in a few words when it does not. */
export function sandboxAvailability(env: Record<string, string | undefined> = process.env): Availability {
  if (process.platform !== "linux") return { ok: false, reason: `no sandbox runs on ${process.platform} here (only Linux with bubblewrap)` };
  const bwrap = findOnPath("bwrap", env.PATH);
  if (!bwrap) return { ok: false, reason: "bwrap (bubblewrap) is not on PATH" };
  cached ??= new Map();
  const known = cached.get(bwrap);
  if (known) return known;
  const probe = spawnSync(bwrap, [...BASE_ARGS, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 30_000,
  });
  const firstLine = probe.stderr?.toString().trim().split("\n")[0];
  const result: Availability =
    probe.status === 0 ? { ok: true, bwrap } : { ok: false, reason: `bwrap cannot create its namespaces${firstLine ? ` (${firstLine})` : ""}` };
  cached.set(bwrap, result);
  return result;
}
