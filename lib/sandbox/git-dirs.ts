/**
 * The git folders a sandboxed command could rewrite to run code outside later, beyond the
 * protected paths themselves (policy.ts). A `.git` folder whose `hooks` and `config` are read-only
 * mounts is not a mount itself, so `mv .git .g` and a new `.git` with a config of the command's
 * own would escape: each such folder, and the folders between it and the project, are bound onto
 * themselves, which makes them impossible to rename (EBUSY) while staying writable. A `commondir`
 * file points git at another folder's config; a missing one cannot be masked without breaking git
 * (an empty file is an error to it), so one that a call created is removed when the call ends.
 */
import { existsSync, lstatSync, unlinkSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";

/** The `.git` folders among `protectedPaths`' parents (a path's folder named `.git` that exists as a folder). */
export function gitDirsOf(protectedPaths: readonly string[], kind: (path: string) => "dir" | "file" | "missing"): string[] {
  const dirs = new Set<string>();
  for (const path of protectedPaths) {
    const parent = dirname(path);
    if (basename(parent) === ".git" && kind(parent) === "dir") dirs.add(parent);
  }
  return [...dirs];
}

/** The folders to bind onto themselves, outermost first: each git folder and every folder between it and `projectDir`. */
export function selfBinds(projectDir: string, gitDirs: readonly string[]): string[] {
  const out = new Set<string>();
  for (const dir of gitDirs) {
    const rel = relative(projectDir, dir);
    if (rel.startsWith("..") || rel === "") continue;
    let at = projectDir;
    for (const part of rel.split("/")) {
      at = join(at, part);
      out.add(at);
    }
  }
  return [...out].sort((a, b) => a.split("/").length - b.split("/").length);
}

/** Notes which git folders have no `commondir` now; the returned function removes one a call made since. */
export function guardCommonDirs(gitDirs: readonly string[]): () => void {
  const absent = gitDirs.map((dir) => join(dir, "commondir")).filter((file) => !existsSync(file));
  return () => {
    for (const file of absent) {
      try {
        if (lstatSync(file).isDirectory()) continue;
        unlinkSync(file);
      } catch {
        // Still absent: nothing was planted.
      }
    }
  };
}
