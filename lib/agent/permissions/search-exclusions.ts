/**
 * What a Grep or Glob search leaves out because a Read rule denies it: exclusion globs handed to
 * ripgrep (relative to the folder it searches) and a predicate for our own walks. Denied files are
 * never opened, instead of their lines being filtered from the printed results afterwards, which a
 * path holding `:` or a newline could fool.
 */
import type { SearchExclusions } from "../../tools/tool.ts";
import { realPath } from "./real-path.ts";

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * The part of absolute glob `glob` below folder `dir`, as a glob relative to it: `**` when `dir`
 * itself is covered, undefined when nothing under `dir` can match.
 */
export function exclusionBelow(glob: string, dir: string): string | undefined {
  const g = glob.split("/").filter(Boolean);
  const d = dir.split("/").filter(Boolean);
  let i = 0;
  for (const name of d) {
    const seg = g[i];
    if (seg === undefined) return "**";
    // `**` may take any of the folders left: what follows it may match anywhere below.
    if (seg === "**") return g.slice(i).join("/");
    if (GLOB_CHARS.test(seg) ? !new Bun.Glob(seg).match(name) : seg !== name) return undefined;
    i++;
  }
  return i >= g.length ? "**" : g.slice(i).join("/");
}

/** The exclusions of the Read deny rules' absolute globs; `covers` is the rules' own match of a path. */
export function searchExclusions(globs: string[], covers: (path: string) => boolean): SearchExclusions {
  return {
    globs(dir) {
      const dirs = [...new Set([dir, realPath(dir)])];
      const out = new Set<string>();
      for (const glob of globs)
        for (const d of dirs) {
          const rel = exclusionBelow(glob, d);
          if (rel !== undefined) out.add(rel);
        }
      return [...out];
    },
    covers,
  };
}
