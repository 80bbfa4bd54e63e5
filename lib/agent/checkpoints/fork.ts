/**
 * Checkpoints follow a conversation into a forked session (a rewind of the conversation forks it,
 * as --fork-session does): the index's rows are written into the new transcript, and the backups
 * are hard-linked into the new session's folder (a backup is never changed once written, so
 * sharing its inode is safe), copied where links are not possible.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { FileCheckpoints } from "./tracker.ts";

/** Makes the backups of session `from` available to the tracker's current session; returns the rows to save there. */
export function forkCheckpoints(checkpoints: FileCheckpoints, from: string, to: string): ReturnType<FileCheckpoints["rows"]> {
  const store = checkpoints.store;
  const source = join(store.root, from);
  const target = join(store.root, to);
  if (existsSync(source)) {
    mkdirSync(target, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(source)) {
      if (!/^[0-9a-f]{16}@v\d+$/.test(name) || existsSync(join(target, name))) continue;
      try {
        linkSync(join(source, name), join(target, name));
      } catch {
        copyFileSync(join(source, name), join(target, name));
      }
    }
  }
  store.sessionId = to;
  return checkpoints.rows();
}
