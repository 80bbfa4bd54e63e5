/**
 * What a rewind to a user message would do, found without changing anything: for every file the
 * agent changed in that turn or later, the state to bring back (the backup taken before its first
 * change at or after that message), what the file holds now, and whether the user changed it
 * since (it holds nothing the agent's history knows: neither a kept state nor what the agent left).
 * Claude Code overwrites a later change of the user silently; a plan names them, and the rewind
 * goes on over them only when asked to.
 */
import type { TrackedFile } from "./row.ts";
import { type ContentHash, currentHash } from "./store.ts";
import type { Snapshot } from "./tracker.ts";

export interface FileStep {
  path: string;
  /** The backup to bring back (backupFileName null: delete the file). */
  target: TrackedFile;
  /** What the file holds now. */
  now: ContentHash | "symlink" | "directory" | "other";
  /** The user (or something other than the agent) changed the file since the agent last did. */
  changedByUser: boolean;
}

export interface RewindPlan {
  messageId: string;
  /** Files that differ from their state at the message, in the order they were first kept. */
  steps: FileStep[];
  /** The git-tree snapshots of the turns from that message on, oldest first (Bash's changes). */
  trees: NonNullable<Snapshot["tree"]>[];
}

/**
 * The plan for rewinding to `messageId`.
 * @throws Error (one line) when no checkpoint has that id.
 */
export function planRewind(snapshots: ReadonlyMap<string, Snapshot>, messageId: string): RewindPlan {
  if (!snapshots.has(messageId)) throw new Error(`no checkpoint for message ${messageId} in this session`);
  const all = [...snapshots.values()];
  const from = all.findIndex((s) => s.messageId === messageId);
  const targets = new Map<string, TrackedFile>();
  const known = new Map<string, Set<ContentHash | undefined>>();
  for (const [i, snapshot] of all.entries()) {
    for (const [path, file] of Object.entries(snapshot.trackedFileBackups)) {
      const states = known.get(path) ?? new Set();
      states.add(file.backupFileName === null && !file.hashOnly ? null : file.sha256);
      if (file.left !== undefined) states.add(file.left);
      known.set(path, states);
      if (i >= from && !targets.has(path)) targets.set(path, file);
    }
  }
  const steps: FileStep[] = [];
  for (const [path, target] of targets) {
    const now = currentHash(path);
    const wanted = target.backupFileName === null && !target.hashOnly ? null : target.sha256;
    if (now === wanted) continue;
    const changedByUser = !known.get(path)!.has(now as ContentHash);
    steps.push({ path, target, now, changedByUser });
  }
  const trees = all.slice(from).flatMap((s) => (s.tree ? [s.tree] : []));
  return { messageId, steps, trees };
}
