/**
 * The sandbox's paths from the settings: `filesystem.*` entries resolved as Claude Code's sandbox
 * paths are (`//x` and `/x` absolute, `~/x` the home, anything else from the file's own folder),
 * the Read and Edit deny rules' globs as the concrete paths bubblewrap can hide or keep read-only,
 * and the Edit allow rules' folders as more writable paths (Claude Code merges both ways too).
 */
import { realpathSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

/** One `sandbox.filesystem` entry as an absolute path, symbolic links resolved (bubblewrap cannot mount onto one). */
export function sandboxPath(entry: string, root: string, home: string): string {
  if (entry.startsWith("//")) return real(resolve(entry.slice(1)));
  if (entry === "~") return real(home);
  if (entry.startsWith("~/")) return real(resolve(join(home, entry.slice(2))));
  return real(isAbsolute(entry) ? resolve(entry) : resolve(root, entry));
}

/** `path` with its symbolic links resolved; as given when it does not exist. */
export function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const GLOB_CHARS = /[*?[\]{}]/;
/** At most this many paths from one Read deny glob with a pattern in the middle (`/p/**\/.env`): beyond, the rest are not hidden. */
const MAX_MATCHES = 2000;

/**
 * The paths an absolute Read deny glob covers, for bubblewrap: its fixed prefix when the rest is
 * `**` (a whole folder) or nothing, else the paths matching it now (so a file made later is not hidden).
 */
export function deniedPaths(glob: string, warn: (line: string) => void): string[] {
  const parts = glob.split("/");
  const fixed: string[] = [];
  for (const part of parts) {
    if (GLOB_CHARS.test(part)) break;
    fixed.push(part);
  }
  const prefix = real(fixed.join("/") || "/");
  const rest = parts.slice(fixed.length).filter(Boolean);
  if (rest.length === 0) return [prefix];
  if (rest.length === 1 && rest[0] === "**") return [prefix];
  const out: string[] = [];
  try {
    for (const rel of new Bun.Glob(rest.join("/")).scanSync({ cwd: prefix, dot: true, onlyFiles: false, followSymlinks: false })) {
      if (out.length >= MAX_MATCHES) {
        warn(`sandbox: Read deny rule ${glob} matches more than ${MAX_MATCHES} paths; only the first ${MAX_MATCHES} are hidden inside the sandbox`);
        break;
      }
      out.push(join(prefix, rel));
    }
  } catch {
    // The prefix folder does not exist: nothing to hide.
  }
  return out;
}

/**
 * The folders or files an Edit allow glob opens for writing: its fixed prefix, only when the rest
 * is `**` or nothing (a pattern in the middle opens nothing: an allow never widens by guess).
 */
export function allowedPaths(glob: string): string[] {
  const parts = glob.split("/");
  const fixed: string[] = [];
  for (const part of parts) {
    if (GLOB_CHARS.test(part)) break;
    fixed.push(part);
  }
  const rest = parts.slice(fixed.length).filter(Boolean);
  const prefix = fixed.join("/");
  return prefix && (rest.length === 0 || (rest.length === 1 && rest[0] === "**")) ? [real(prefix)] : [];
}
