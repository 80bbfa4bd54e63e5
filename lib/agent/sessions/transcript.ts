/**
 * A session's transcript file: one JSON object per line (JSON Lines), the first a header, then
 * one line per change of the conversation (conversation.ts's records), each appended with one
 * write(2) on an O_APPEND descriptor as it happens, never rewritten, so a crash loses at most the
 * line being written; one process writes a session at a time (transcript-lock.ts). Files are mode 0600:
 * a conversation can hold anything a tool read.
 *
 * Line shapes (`version` 1):
 *   {"type":"session","version":1,"session_id":"<uuid>","cwd":"/abs","model":"…","created_at":"<ISO 8601>","forked_from"?:"<uuid>"}
 *   {"type":"message","id":"<uuid>","timestamp":"<ISO 8601>","message":{"role","content"},"usage"?:{…},"model"?:"…"}
 *   {"type":"routes","routes":{"<API tool name>":{"server":"…","tool":"…"}},"timestamp":"…"}
 *   {"type":"rollback","to":"<id of the last kept message>"|null,"timestamp":"…"}
 *   {"type":"file-history-snapshot",…}   a checkpoint (Claude Code's row shape, checkpoints/row.ts)
 */
import { chmodSync, closeSync, fstatSync, openSync, readFileSync, writeSync } from "node:fs";
import type { ConversationSink, TranscriptRecord } from "../conversation.ts";
import { lockTranscript } from "./transcript-lock.ts";

export const TRANSCRIPT_VERSION = 1;

export interface TranscriptHeader {
  type: "session";
  version: number;
  session_id: string;
  cwd: string;
  model: string;
  created_at: string;
  forked_from?: string;
}

export interface Transcript {
  header: TranscriptHeader;
  records: TranscriptRecord[];
}

/** Appends records to a transcript file, creating it (mode 0600) with its header on first use. */
export class TranscriptWriter implements ConversationSink {
  private fd: number | undefined;
  private unlock: (() => void) | undefined;
  private failed = false;

  /**
   * @param path the `.jsonl` file; its folder must exist
   * @param header written first when the file is new
   * @param warn told once when the file cannot be written; the run goes on without saving
   */
  constructor(
    readonly path: string,
    private readonly header: TranscriptHeader,
    private readonly warn: (line: string) => void = () => {},
  ) {}

  /**
   * Appends one line. The file is created at the first record, so a run that ends before its
   * first message (a bad prompt, a missing key) leaves no empty session behind. Never throws: a
   * failed write is reported once through `warn` and later records are dropped.
   */
  write(record: TranscriptRecord): void {
    if (this.failed) return;
    try {
      this.append(record);
    } catch (err) {
      // A full disk or a read-only home must not end the run: it goes on unsaved, said once.
      this.failed = true;
      this.warn(`cannot save this session to ${this.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private append(record: TranscriptRecord): void {
    if (this.fd === undefined) {
      // One writer per session: two processes appending to one transcript would interleave two conversations.
      const lock = lockTranscript(this.path);
      if (typeof lock === "string") throw new Error(lock);
      this.unlock = lock;
      this.fd = openSync(this.path, "a", 0o600);
      chmodSync(this.path, 0o600); // an existing file (resumed) keeps whatever mode it had otherwise
      if (fstatSync(this.fd).size === 0) this.line(this.header);
    }
    this.line(record.type === "message" ? { type: "message", ...record.entry } : record);
  }

  private line(obj: object): void {
    writeSync(this.fd!, `${JSON.stringify(obj)}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.unlock?.();
    this.unlock = undefined;
  }
}

/**
 * Reads a transcript. A line that does not parse is skipped with a warning naming the file and
 * the line: at the end it is the line a crash cut short, elsewhere the file was damaged.
 * @throws Error when the file cannot be read or has no valid header line
 */
export function readTranscript(path: string, warn: (line: string) => void): Transcript {
  const lines = readFileSync(path, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  let header: TranscriptHeader | undefined;
  const records: TranscriptRecord[] = [];
  lines.forEach((line, i) => {
    let obj: any;
    try {
      obj = JSON.parse(line);
    } catch {
      warn(`${path}: line ${i + 1} ${i === lines.length - 1 ? "is incomplete (the session was cut short while writing it)" : "is not JSON"}: skipped`);
      return;
    }
    if (i === 0 && obj?.type === "session") header = obj;
    else if (obj?.type === "message" && obj.message && typeof obj.id === "string") {
      const { type: _, ...entry } = obj;
      records.push({ type: "message", entry });
    } else if (obj?.type === "routes" || obj?.type === "rollback" || obj?.type === "file-history-snapshot") records.push(obj);
  });
  if (!header) throw new Error(`${path} is not a session transcript (no header line)`);
  return { header, records };
}
