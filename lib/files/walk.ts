/**
 * Listing files under a directory with Bun.Glob for Glob and Grep's fallback: dot-files and
 * dot-folders are included (`.github/**` must work), while `.git` and `node_modules` are skipped
 * unless the pattern names them, as they are rarely what a search is after and can be huge.
 */
import { isAbsolute, resolve } from "node:path";

export const SKIPPED_DIRS = [".git", "node_modules"];
const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * Splits `pattern` (relative to `base`, or absolute) into the directory its literal leading
 * segments name and the glob for the rest: ("src/lib/*.ts", "/r") → {dir: "/r/src/lib", glob: "*.ts"}.
 * A pattern without glob characters is a literal path: its last segment becomes the glob.
 */
export function splitPattern(base: string, pattern: string): { dir: string; glob: string } {
  const segments = pattern.split("/");
  let literal = segments.findIndex((s) => GLOB_CHARS.test(s));
  if (literal === -1) literal = segments.length - 1;
  const prefix = segments.slice(0, literal).join("/");
  const dir = prefix === "" ? (isAbsolute(pattern) ? "/" : base) : resolve(base, prefix);
  return { dir, glob: segments.slice(literal).join("/") };
}

/**
 * Yields the paths, relative to `dir` with "/" separators, of files (not directories) under `dir`
 * matching `glob`, dot-files included, skipping SKIPPED_DIRS unless `glob` names one as a segment.
 * Symbolic links to directories are not followed. May throw the fs error of an unreadable `dir`.
 * When `signal` aborts, throws its reason at once, even while the scan is still running.
 */
export async function* walkFiles(dir: string, glob: string, signal?: AbortSignal): AsyncGenerator<string> {
  const named = new Set(glob.split("/"));
  const skipped = SKIPPED_DIRS.filter((d) => !named.has(d));
  const scan = new Bun.Glob(glob).scan({ cwd: dir, dot: true, onlyFiles: true, followSymlinks: false, throwErrorOnBrokenSymlink: false });
  const entries = scan[Symbol.asyncIterator]();
  // Bun scans off the main thread and cannot be stopped: race each step against the abort instead.
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => (onAbort = () => reject(signal!.reason)));
  aborted.catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    while (true) {
      signal?.throwIfAborted();
      const next = await Promise.race([entries.next(), aborted]);
      if (next.done) return;
      const parts = next.value.split("/");
      parts.pop();
      if (skipped.length > 0 && parts.some((p) => skipped.includes(p))) continue;
      yield next.value;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
