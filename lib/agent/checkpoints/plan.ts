/**
 * What a rewind to a user message would do, found without changing anything: for every file the
 * agent changed in that turn or later, the state to bring back (the backup taken before its first
 * change at or after that message), what the file holds now, and whether the user changed it
 * since (it holds nothing the agent's history knows: neither a kept state nor what the agent left).
 * Claude Code overwrites a later change of the user silently; a plan names them, and the rewind
 * goes on over them only when asked to.
 */
import type { TrackedFile } from "./row.ts";
import { type BackupStore, type ContentHash, currentHash } from "./store.ts";
import type { Snapshot } from "./tracker.ts";
import { readBlob, treeChanges } from "./git-tree.ts";

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
  /** What the rewind cannot see (Bash's changes outside git), one line each. */
  notes: string[];
}

/**
 * The plan for rewinding to `messageId`.
 * @throws Error (one line) when no checkpoint has that id.
 */
export function planRewind(snapshots: ReadonlyMap<string, Snapshot>, messageId: string, store?: BackupStore, debug?: (line: string) => void): RewindPlan {
  if (!snapshots.has(messageId)) {
    // No snapshot at all: checkpointing was off for the session (-p's default), not a mistyped id.
    const why = snapshots.size
      ? " in this session"
      : ": this session kept no file checkpoints (-p and host mode keep them only with CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=1)";
    throw new Error(`no checkpoint for message ${messageId}${why}`);
  }
  const all = [...snapshots.values()];
  const from = all.findIndex((s) => s.messageId === messageId);
  const targets = new Map<string, TrackedFile>();
  const turnOf = new Map<string, number>();
  const known = new Map<string, Set<ContentHash | undefined>>();
  for (const [i, snapshot] of all.entries()) {
    for (const [path, file] of Object.entries(snapshot.trackedFileBackups)) {
      const states = known.get(path) ?? new Set();
      states.add(file.backupFileName === null && !file.hashOnly ? null : file.sha256);
      if (file.left !== undefined) states.add(file.left);
      known.set(path, states);
      if (i >= from && !targets.has(path)) {
        targets.set(path, file);
        turnOf.set(path, i);
      }
    }
  }
  const notes: string[] = [];
  // Bash's changes: the earliest tree at or after the message, for files whose own backups are later.
  const treeAt = all.findIndex((s, i) => i >= from && s.tree !== undefined);
  const tree = all[treeAt]?.tree;
  if (tree && store) {
    const changes = treeChanges(tree, store.gitDir, debug);
    if (typeof changes === "string") notes.push(`Changes made by Bash are not tracked here (${changes}).`);
    else
      for (const change of changes) {
        const own = targets.get(change.path);
        const turn = turnOf.get(change.path) ?? Infinity;
        if (own && (turn < treeAt || (turn === treeAt && own.backupTime <= (tree.time ?? "")))) continue;
        targets.set(change.path, {
          backupFileName: change.blob ? `git:${change.blob}` : null,
          version: 0,
          backupTime: tree.time ?? "",
          blob: change.blob,
          root: tree.root,
          mode: change.mode,
          ...(change.blob ? {} : { left: null }),
        });
      }
  }
  const steps: FileStep[] = [];
  for (const [path, target] of targets) {
    if (target.root) {
      // From the git tree: the bytes are compared when restoring; the agent's own record of them is the tree itself.
      const now = currentHash(path);
      if (target.blob === undefined && now === null) continue;
      steps.push({ path, target, now, changedByUser: false });
      continue;
    }
    const now = currentHash(path);
    const wanted = target.backupFileName === null && !target.hashOnly ? null : target.sha256;
    if (now === wanted) continue;
    const changedByUser = !known.get(path)!.has(now as ContentHash);
    steps.push({ path, target, now, changedByUser });
  }
  return { messageId, steps, notes };
}

/** The bytes a step brings back: a backup, or a git blob (a file Bash changed). @throws Error (one line) when unreadable. */
export function readTarget(target: TrackedFile, store: BackupStore): Buffer {
  return target.blob ? readBlob(store.gitDir, target.root ?? "", target.blob) : store.read(target);
}
