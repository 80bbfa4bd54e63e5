/**
 * Mount points on the host for protected paths that did not exist (an empty file or folder in the
 * project), made here before bubblewrap starts (bwrap making them itself costs it about as much as
 * the rest of its start): counted while calls use them, removed when the last one ends, and only
 * while still empty, so nothing a person made there is ever deleted.
 */
import { closeSync, mkdirSync, openSync, readdirSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import type { Placeholder } from "./bwrap.ts";

const inUse = new Map<string, Placeholder>();
const counts = new Map<string, number>();
let exitHook = false;

/** Marks `placeholders` as used by one call; the returned function ends that use. */
export function holdPlaceholders(placeholders: Placeholder[]): () => void {
  if (!exitHook) {
    exitHook = true;
    // However this process ends short of SIGKILL, no empty mask is left in the project.
    process.on("exit", () => {
      for (const p of inUse.values()) removeIfEmpty(p);
    });
  }
  for (const p of placeholders) {
    counts.set(p.path, (counts.get(p.path) ?? 0) + 1);
    inUse.set(p.path, p);
    make(p);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const p of placeholders) {
      const left = (counts.get(p.path) ?? 1) - 1;
      if (left > 0) {
        counts.set(p.path, left);
        continue;
      }
      counts.delete(p.path);
      inUse.delete(p.path);
      removeIfEmpty(p);
    }
  };
}

/** True while some call holds a placeholder at `path` (bwrap.ts then sees it as existing but must still mask it). */
export function isPlaceholder(path: string): boolean {
  return counts.has(path);
}

/** Makes the mount point if it is still missing; a failure is left to bwrap, which then makes it or says why. */
function make(p: Placeholder): void {
  try {
    if (p.folder) mkdirSync(p.path, { mode: 0o555 });
    else closeSync(openSync(p.path, "wx", 0o444));
  } catch {
    // There already (another call's), or not ours to make.
  }
}

function removeIfEmpty(p: Placeholder): void {
  try {
    const st = statSync(p.path);
    if (p.folder && st.isDirectory() && readdirSync(p.path).length === 0) rmdirSync(p.path);
    else if (!p.folder && st.isFile() && st.size === 0) unlinkSync(p.path);
  } catch {
    // Gone already, or not ours to remove.
  }
}
