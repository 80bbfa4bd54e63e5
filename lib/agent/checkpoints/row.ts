/**
 * The transcript row of a checkpoint, in Claude Code's shape: `{"type":"file-history-snapshot",
 * "messageId","snapshot":{"messageId","trackedFileBackups":{<absolute path>: Backup},"timestamp"},
 * "isSnapshotUpdate"}`. One row with `isSnapshotUpdate: false` when a user message starts a turn,
 * then one update per change (the whole snapshot of that message again), so the last row of a
 * message is its whole state. Our own fields ride beside Claude Code's: `left` per file (what the
 * agent left the file as, to tell a later change by the user) and `tree` (the git-tree snapshot).
 * Our transcript's lines are our own format: Claude Code does not read these rows.
 */
import type { Backup, ContentHash } from "./store.ts";

/** One file in a snapshot: its backup from before the turn's first change, and what the agent left. */
export interface TrackedFile extends Backup {
  /** SHA-256 of the file as the agent's last change in this turn left it; null: the agent deleted it. */
  left?: ContentHash;
  /** Only in a plan, never saved: the git blob holding the content (a file Bash changed), its work tree and mode. */
  blob?: string;
  root?: string;
  mode?: number;
}

export interface FileHistoryRow {
  type: "file-history-snapshot";
  messageId: string;
  snapshot: {
    messageId: string;
    trackedFileBackups: Record<string, TrackedFile>;
    timestamp: string;
    /** The git-tree snapshot before the turn's first Bash call (git-tree.ts), when one was taken. */
    tree?: TreeSnapshot;
  };
  isSnapshotUpdate: boolean;
}

/** A work tree's state before a turn's first Bash call. */
export interface TreeSnapshot {
  /** The work tree's top folder. */
  root: string;
  /** The git tree object (in our own object store) holding every tracked and untracked-not-ignored file. */
  tree?: string;
  /** Why there is no tree: outside git, too large, git failed. */
  skipped?: string;
  /** When it was taken (ISO 8601): against a file's backupTime, which came first in the turn. */
  time?: string;
}
