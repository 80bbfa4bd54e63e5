/**
 * Large tool results kept whole: output past a tool's limit is written, every byte, to a file in
 * the run's folder (`<config dir>/tool-results/<run id>/`, folder 0700, files 0600), and the
 * model gets the head, the tail, the file's path and how to read the rest with Read or Grep.
 * The folder is removed when the run ends (`removeSpills`, called at shutdown) unless
 * `keepSpills()` was called: a persisted session keeps its results next to its transcript.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userConfigDir } from "../shared/claude-home.ts";
import { prefix } from "./truncate.ts";

let folder: string | undefined;
let keep = false;
let count = 0;

/** Where this run's spilled results go: under $CLAUDE_CONFIG_DIR (or ~/.claude), else the temp dir. */
function runFolder(): string {
  if (folder) return folder;
  const id = `${new Date().toISOString().slice(0, 10)}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const bases = [userConfigDir(), tmpdir()];
  for (const base of bases) {
    const dir = join(base, "tool-results", id);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      folder = dir;
      return dir;
    } catch {
      // An unwritable config folder: fall back to the temp dir.
    }
  }
  throw new Error("cannot create a folder for large tool results");
}

/** Keep the spilled files after the run (sessions are persisted). */
export function keepSpills(): void {
  keep = true;
}

/** Removes this run's folder, unless `keepSpills()` was called. Never throws. */
export function removeSpills(): void {
  if (!folder || keep) return;
  rmSync(folder, { recursive: true, force: true });
  folder = undefined;
}

/**
 * A file for one result, written as it streams: bytes are held in memory until `threshold` bytes
 * have come, and only then is the file created (most outputs never need one).
 */
export class SpillWriter {
  private pending: Uint8Array[] = [];
  private held = 0;
  private fd: number | undefined;
  /** The file's path once it exists. */
  path: string | undefined;
  /** Bytes written or held. */
  bytes = 0;

  constructor(
    private readonly label: string,
    private readonly threshold: number,
  ) {}

  /** Adds bytes; never throws (a failed write leaves the result as the cut it would have been). */
  append(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    try {
      if (this.fd === undefined) {
        this.pending.push(chunk);
        this.held += chunk.length;
        if (this.held <= this.threshold) return;
        this.open();
        for (const p of this.pending) writeSync(this.fd!, p);
        this.pending = [];
        return;
      }
      writeSync(this.fd, chunk);
    } catch {
      this.close();
      this.path = undefined;
    }
  }

  /** Closes the file; returns its path when the output was spilled. */
  finish(): string | undefined {
    this.pending = [];
    this.close();
    return this.path;
  }

  private open(): void {
    const path = join(runFolder(), `${String(++count).padStart(4, "0")}-${this.label.replace(/[^\w.-]+/g, "_").slice(0, 60)}.txt`);
    this.fd = openSync(path, "w", 0o600);
    this.path = path;
  }

  private close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Writes `text` whole to a new file for `label`; returns its path, or undefined when it cannot. */
export function spillText(label: string, text: string): string | undefined {
  const writer = new SpillWriter(label, -1);
  writer.append(Buffer.from(text, "utf8"));
  return writer.finish();
}

/**
 * What the model gets for a spilled result: the first and last characters (`maxChars` in all),
 * between them a note with the size, the file's path and how to read the rest.
 */
export function spilledView(text: string, maxChars: number, path: string, bytes: number): string {
  const half = Math.max(0, Math.floor(maxChars / 2));
  const head = prefix(text, half);
  let tail = text.slice(Math.max(head.length, text.length - half));
  const first = tail.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) tail = tail.slice(1);
  return `${head}\n\n${spillNote(text.length - head.length - tail.length, path, bytes)}\n\n${tail}`;
}

/** The line under Bash's omitted marker. */
export function spillLine(path: string, bytes: number): string {
  return `[Whole output (${bytes} bytes) saved in ${path}: Read it with offset and limit, or Grep it.]`;
}

/** The sentence between head and tail. */
export function spillNote(omitted: number, path: string, bytes: number): string {
  return `... [${omitted} characters omitted here. The whole output (${bytes} bytes) is saved in ${path}: use Read with offset and limit, or Grep with that path, to see the rest.] ...`;
}
