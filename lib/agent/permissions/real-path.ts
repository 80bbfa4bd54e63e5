/**
 * Where a path really leads before a Read or Edit rule is matched, also for a file that does not
 * exist yet: the deepest existing folder is resolved through its links, and a dangling link's
 * target is followed, so that a new file written through a linked folder or a dangling link is
 * judged where it will land. Never throws: what cannot be read stays as written.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** Links followed at most, as the kernel's own limit (ELOOP) keeps a cycle from looping. */
const MAX_LINKS = 40;

/** The real path of absolute `abs`, whether or not it exists. */
export function realPath(abs: string, links = 0): string {
  try {
    return realpathSync(abs);
  } catch {
    // Missing, or a dangling link somewhere: resolve the folder, then this name.
  }
  const parent = dirname(abs);
  if (parent === abs || links > MAX_LINKS) return abs;
  const dir = realPath(parent, links + 1);
  const here = join(dir, basename(abs));
  try {
    if (lstatSync(here).isSymbolicLink()) return realPath(resolve(dir, readlinkSync(here)), links + 1);
  } catch {
    // Not there: a new file in `dir`.
  }
  return here;
}
