/**
 * A rewind as every mode asks for it: a preview (what would change, with line counts and what
 * stops it) and the rewind itself, each naming files the same way. The modes only show the result:
 * -p prints it, the host answers `rewind_files`, the session's /rewind lists and confirms.
 */
import { applyRewind, rewindProblems } from "./apply.ts";
import { type FileStep, planRewind, type RewindPlan } from "./plan.ts";
import { type LineStats, totalStats } from "./stats.ts";
import type { FileCheckpoints } from "./tracker.ts";

export interface RewindPreview extends LineStats {
  plan: RewindPlan;
  perFile: (LineStats & { path: string })[];
  /** What stops the rewind (one line each); changes by the user only without `overwrite`. */
  problems: string[];
}

/**
 * What rewinding to `messageId` would do; changes nothing.
 * @throws Error (one line) when the session has no checkpoint with that id.
 */
export function previewRewind(checkpoints: FileCheckpoints, messageId: string, overwrite = false): RewindPreview {
  const plan = planRewind(checkpoints.snapshots, messageId, checkpoints.store);
  const stats = totalStats(plan.steps, checkpoints.store);
  return { plan, ...stats, problems: rewindProblems(plan, checkpoints.store, overwrite) };
}

/**
 * Rewinds the files to their state at `messageId` (apply.ts: whole or not at all). Returns the files changed.
 * @throws Error (one line) for an unknown id; RewindError for what stops it, nothing changed.
 */
export function rewindFiles(checkpoints: FileCheckpoints, messageId: string, overwrite = false): { steps: FileStep[]; notes: string[] } {
  const plan = planRewind(checkpoints.snapshots, messageId, checkpoints.store);
  return { steps: applyRewind(plan, checkpoints.store, overwrite), notes: plan.notes };
}

/** One line per file: what the rewind did (or would do) to it. */
export function describeStep(step: FileStep): string {
  if (step.target.backupFileName === null) return `deleted ${step.path} (it did not exist then)`;
  if (step.now === null) return `restored ${step.path} (it had been deleted)`;
  if (step.now === "symlink") return `restored ${step.path} (replacing a symbolic link put there since)`;
  return `restored ${step.path}`;
}
