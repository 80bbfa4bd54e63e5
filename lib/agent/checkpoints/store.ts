/**
 * The backup store, in Claude Code's layout: `<config dir>/file-history/<session id>/<hash>@v<n>`,
 * `<hash>` the first 16 hex digits of the SHA-256 of the file's absolute path, `<n>` counting the
 * file's backups from 1. A backup is the file's bytes exactly (binary kept like text). Folders are
 * 0700 and files 0600: a backup holds whatever the file held. Each backup is written whole to a
 * temporary name, then hard-linked to its versioned name: a crash leaves no half backup, and since
 * link(2) fails on an existing name, two writers never take the same version. (A backup is written
 * once and never changed, so it needs no read-change-write lock; the mkdir lock of
 * files/locked-write.ts would cost more than the copy itself, about 2.7 ms a backup here.)
 *
 * Files up to MAX_FULL_BYTES are kept whole; a larger one is recorded by its hash only (rewind
 * says it cannot restore it), so one huge file never fills the disk behind the user's back.
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  linkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";

/** Files larger than this (bytes) are recorded by hash only. */
export const MAX_FULL_BYTES = 50 * 1024 * 1024;

/** One file's state as a snapshot keeps it: Claude Code's three fields, and ours after them. */
export interface Backup {
  /** `<hash>@v<n>` in the session folder; null: the file did not exist (rewind deletes it). */
  backupFileName: string | null;
  version: number;
  backupTime: string;
  /** SHA-256 of the kept bytes (hex): a backup that no longer matches is refused. */
  sha256?: string;
  size?: number;
  /** Too large to keep: only `sha256` and `size` are known, and rewind cannot restore it. */
  hashOnly?: true;
  /** The parent folder's real path then: a rewind never writes through a folder since replaced by a link. */
  realParentDir?: string;
}

/** What the bytes of a file hash to, or null for a file that does not exist. */
export type ContentHash = string | null;

/** The root every session's folder lives in. */
export function fileHistoryRoot(env: Record<string, string | undefined> = process.env): string {
  return join(userConfigDir(env), "file-history");
}

/** Claude Code's backup name: `<16 hex of sha256(path)>@v<version>`. */
export function backupName(path: string, version: number): string {
  return `${createHash("sha256").update(path).digest("hex").slice(0, 16)}@v${version}`;
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The backups of one session. */
export class BackupStore {
  /** The next free version per path, learnt on first use. */
  private readonly next = new Map<string, number>();

  constructor(
    readonly root: string,
    public sessionId: string,
  ) {}

  get dir(): string {
    return join(this.root, this.sessionId);
  }

  /** The session's own git object store (git-tree.ts). */
  get gitDir(): string {
    return join(this.dir, "git");
  }

  /**
   * Keeps `path` as it is now and returns its record. `previous`: the file's latest backup, reused
   * when the content has not changed since (no new file).
   * @throws the file-system error when the backup cannot be written (a full disk): the caller says the checkpoint was skipped.
   */
  keep(path: string, previous?: Backup): Backup {
    const now = new Date().toISOString();
    const realParentDir = realParent(path);
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats) return { backupFileName: null, version: previous ? previous.version + 1 : 1, backupTime: now, realParentDir };
    if (stats.size > MAX_FULL_BYTES) {
      return {
        backupFileName: null,
        version: (previous?.version ?? 0) + 1,
        backupTime: now,
        sha256: hashFile(path),
        size: stats.size,
        hashOnly: true,
        realParentDir,
      };
    }
    const bytes = readFileSync(path);
    const digest = sha256(bytes);
    if (previous?.backupFileName && previous.sha256 === digest && existsSync(join(this.dir, previous.backupFileName))) {
      return { ...previous, backupTime: now, realParentDir };
    }
    const name = this.write(path, bytes, previous?.version);
    return { backupFileName: name, version: Number(name.slice(name.indexOf("@v") + 2)), backupTime: now, sha256: digest, size: bytes.length, realParentDir };
  }

  /**
   * The bytes of `backup`, checked against its hash.
   * @throws Error (one line) when the backup is missing, unreadable or no longer what was kept.
   */
  read(backup: Backup): Buffer {
    const file = join(this.dir, backup.backupFileName ?? "");
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new Error(`the checkpoint ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (backup.sha256 && sha256(bytes) !== backup.sha256) throw new Error(`the checkpoint ${file} is damaged (its content no longer matches what was kept)`);
    return bytes;
  }

  private write(path: string, bytes: Uint8Array, after = 0): string {
    const dir = this.dir;
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = join(dir, `.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
    try {
      writeFileSync(temp, bytes, { mode: 0o600 });
      chmodSync(temp, 0o600);
      // link(2) fails when the name exists: a version is taken by exactly one writer, without a lock.
      for (let version = Math.max(this.next.get(path) ?? 1, after + 1); ; version++) {
        const name = backupName(path, version);
        try {
          linkSync(temp, join(dir, name));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
          throw err;
        }
        this.next.set(path, version + 1);
        return name;
      }
    } finally {
      rmSync(temp, { force: true });
    }
  }
}

/** The real path of `path`'s folder, or undefined when it does not resolve. */
export function realParent(path: string): string | undefined {
  try {
    return realpathSync(dirname(path));
  } catch {
    return undefined;
  }
}

/** SHA-256 of a file read in 1 MB pieces (a file too large to hold). */
export function hashFile(path: string): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** What `path` holds now: its hash, null when absent, or a word for what is not a regular file. */
export function currentHash(path: string): ContentHash | "symlink" | "directory" | "other" {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return null;
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isDirectory()) return "directory";
  if (!stats.isFile()) return "other";
  return stats.size > MAX_FULL_BYTES ? hashFile(path) : sha256(readFileSync(path));
}
