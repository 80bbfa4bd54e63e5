/**
 * A session's checkpoints as they are taken: each user message starts a snapshot, and before a
 * file's first change in that turn (Edit, Write, NotebookEdit, in the main conversation or a
 * subagent of it) the file is kept as it was (store.ts), absent recorded as absent. Every change
 * of a snapshot is saved as a transcript row (row.ts) at once, so a crash loses none; a resumed
 * session rebuilds the same index from its rows.
 *
 * A checkpoint that cannot be written (a full disk, an unwritable home) never stops the tool: one
 * line says the checkpoint was skipped, and that change cannot be rewound.
 */
import type { FileChangeHook } from "../../tools/tool.ts";
import type { FileHistoryRow, TrackedFile, TreeSnapshot } from "./row.ts";
import { type BackupStore, sha256 } from "./store.ts";
import { snapshotTree } from "./git-tree.ts";

export type Snapshot = FileHistoryRow["snapshot"];

export interface TrackerOptions {
  store: BackupStore;
  /** The session's id now (it changes when the conversation moves to a new session). */
  sessionId(): string;
  /** Saves a row (the conversation's transcript). */
  record(row: FileHistoryRow): void;
  /** One line for the user. */
  warn(line: string): void;
  /** A --debug line. */
  debug?(line: string): void;
  /** Rows of the resumed session, oldest first. */
  rows?: Iterable<FileHistoryRow>;
}

export class FileCheckpoints {
  /** Each user message's snapshot, oldest first (a Map keeps insertion order). */
  readonly snapshots = new Map<string, Snapshot>();
  private current: Snapshot | undefined;
  /** Paths already kept in the current turn. */
  private readonly touched = new Set<string>();

  /** What the tools call around each change of a file. */
  readonly hook: FileChangeHook = {
    before: (path) => this.before(path),
    after: (path, bytes) => this.after(path, bytes),
    beforeShell: (cwd) => {
      if (this.current && !this.current.tree) this.setTree(snapshotTree(cwd, this.opts.store.gitDir, this.opts.debug));
    },
  };

  constructor(private readonly opts: TrackerOptions) {
    for (const row of opts.rows ?? []) this.snapshots.set(row.messageId, row.snapshot);
  }

  get store(): BackupStore {
    return this.opts.store;
  }

  /** A user message `messageId` starts a turn: its snapshot begins empty. */
  beginTurn(messageId: string): void {
    this.opts.store.sessionId = this.opts.sessionId();
    this.touched.clear();
    this.current = { messageId, trackedFileBackups: {}, timestamp: new Date().toISOString() };
    this.snapshots.delete(messageId);
    this.snapshots.set(messageId, this.current);
    this.save(false);
  }

  /** Whether the current turn has a git-tree snapshot already (taken once, before its first Bash call). */
  get hasTree(): boolean {
    return this.current?.tree !== undefined;
  }

  /** Records the current turn's git-tree snapshot. */
  setTree(tree: TreeSnapshot): void {
    if (!this.current) return;
    this.current.tree = tree;
    this.save(true);
  }

  /** Every row that rebuilds this index (a forked session's first rows). */
  rows(): FileHistoryRow[] {
    return [...this.snapshots.values()].map((snapshot) => ({
      type: "file-history-snapshot",
      messageId: snapshot.messageId,
      snapshot,
      isSnapshotUpdate: false,
    }));
  }

  /** The latest record of `path` before the current turn's, for reusing an unchanged backup. */
  private latest(path: string): TrackedFile | undefined {
    let found: TrackedFile | undefined;
    for (const snapshot of this.snapshots.values()) {
      if (snapshot === this.current) break;
      found = snapshot.trackedFileBackups[path] ?? found;
    }
    return found;
  }

  private before(path: string): void {
    const snapshot = this.current;
    if (!snapshot || this.touched.has(path)) return;
    this.touched.add(path);
    try {
      snapshot.trackedFileBackups[path] = this.opts.store.keep(path, this.latest(path));
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      this.opts.warn(`checkpoint skipped for ${path} (${reason}): this change cannot be rewound`);
      return;
    }
    this.save(true);
  }

  private after(path: string, bytes: Uint8Array): void {
    const tracked = this.current?.trackedFileBackups[path];
    if (!tracked) return;
    tracked.left = sha256(bytes);
    this.save(true);
  }

  private save(update: boolean): void {
    const snapshot = this.current;
    if (!snapshot) return;
    this.opts.record({ type: "file-history-snapshot", messageId: snapshot.messageId, snapshot: structuredClone(snapshot), isSnapshotUpdate: update });
  }
}
