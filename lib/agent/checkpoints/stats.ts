/**
 * How much a rewind undoes, per file and in all: the lines the agent's turns added (`+N`) and
 * removed (`−M`), counted by a line diff from the kept state to what the file holds now (the
 * Agent SDK's `insertions` and `deletions`). Binary or very large content counts no lines.
 */
import { existsSync, readFileSync } from "node:fs";
import { diffLines } from "diff";
import { type FileStep, readTarget } from "./plan.ts";
import type { BackupStore } from "./store.ts";
import type { TrackedFile } from "./row.ts";
import type { Snapshot } from "./tracker.ts";

/** Content larger than this (bytes) is not diffed: its lines count 0. */
const MAX_DIFF_BYTES = 2 * 1024 * 1024;

export interface LineStats {
  insertions: number;
  deletions: number;
}

/** Lines the turns added and removed in `step`'s file (its kept state → now). Never throws. */
export function stepStats(step: FileStep, store: BackupStore): LineStats {
  const before = kept(step.target, store);
  const now = step.now === null ? "" : typeof step.now === "string" && step.now.length === 64 ? text(() => readFileSync(step.path)) : undefined;
  return count(before, now);
}

/**
 * What the turn of `messageId` changed, per file: from its backup to the file's next backup (a
 * later turn's), or to what the file holds now when no later turn changed it.
 */
export function messageStats(snapshots: ReadonlyMap<string, Snapshot>, messageId: string, store: BackupStore): (LineStats & { path: string })[] {
  const all = [...snapshots.values()];
  const at = all.findIndex((s) => s.messageId === messageId);
  if (at < 0) return [];
  return Object.entries(all[at]!.trackedFileBackups).map(([path, file]) => {
    const later = all.slice(at + 1).find((s) => s.trackedFileBackups[path])?.trackedFileBackups[path];
    const after = later ? kept(later, store) : (text(() => readFileSync(path)) ?? (existsSync(path) ? undefined : ""));
    return { path, ...count(kept(file, store), after) };
  });
}

function kept(file: TrackedFile, store: BackupStore): string | undefined {
  if (file.hashOnly) return undefined;
  return file.backupFileName === null ? "" : text(() => readTarget(file, store));
}

function count(before: string | undefined, now: string | undefined): LineStats {
  if (before === undefined || now === undefined) return { insertions: 0, deletions: 0 };
  let insertions = 0;
  let deletions = 0;
  for (const part of diffLines(before, now)) {
    if (part.added) insertions += part.count ?? 0;
    if (part.removed) deletions += part.count ?? 0;
  }
  return { insertions, deletions };
}

/** Totals over `steps`. */
export function totalStats(steps: FileStep[], store: BackupStore): LineStats & { perFile: (LineStats & { path: string })[] } {
  const perFile = steps.map((s) => ({ path: s.path, ...stepStats(s, store) }));
  return {
    perFile,
    insertions: perFile.reduce((n, f) => n + f.insertions, 0),
    deletions: perFile.reduce((n, f) => n + f.deletions, 0),
  };
}

function text(read: () => Buffer): string | undefined {
  try {
    const bytes = read();
    if (bytes.length > MAX_DIFF_BYTES || bytes.includes(0)) return undefined;
    return bytes.toString("utf8");
  } catch {
    return undefined;
  }
}
