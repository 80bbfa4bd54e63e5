/**
 * Newline-delimited framing for the stdio transport (MCP 2025-11-25, basic/transports#stdio):
 * bytes → lines. Splits on the newline byte (0x0A) and decodes each complete line on its own,
 * so a multi-byte character straddling two reads is never broken, and a line of invalid
 * UTF-8 costs that line only.
 *
 * Linear in the input: each byte is scanned for 0x0A exactly once and copied at most once
 * (when a line spans several chunks, its pieces are joined once, when its newline arrives).
 */
import { chunks, concat } from "./byte-stream.ts";

/** Work counters, in bytes and lines, so tests can assert on work done rather than wall time. */
export interface FramingStats {
  /** Bytes fed in through `push`. */
  bytesIn: number;
  /** Bytes examined while searching for newlines; equals `bytesIn` when no byte is re-scanned. */
  bytesScanned: number;
  /** Bytes copied to join lines that spanned several chunks. */
  bytesCopied: number;
  /** Lines delivered as text. */
  lines: number;
  /** Lines delivered as raw bytes because they were not valid UTF-8 or were too long. */
  invalidLines: number;
}

/**
 * One framed line: `string` for a decoded line (trailing `\r` removed), `Uint8Array` for a
 * line that could not be decoded (invalid UTF-8, or longer than `maxLineBytes`, then truncated).
 */
export type FramedLine = string | Uint8Array;

export interface LineSplitterOptions {
  /**
   * Longest line kept, in bytes (default 256 MiB). A longer line is dropped and reported as
   * invalid, so a server that never writes a newline cannot exhaust memory.
   */
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;
/** How much of an over-long line is kept to show in a note. */
const OVERLONG_SAMPLE_BYTES = 200;

/** Push-style splitter: feed chunks with `push`, then `end` at EOF. Blank lines are skipped. */
export class LineSplitter {
  readonly stats: FramingStats = { bytesIn: 0, bytesScanned: 0, bytesCopied: 0, lines: 0, invalidLines: 0 };
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private readonly maxLineBytes: number;
  /** Pieces of the current, unfinished line: never searched again. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Set while skipping the rest of an over-long line; holds its first bytes for the report. */
  private overlong: Uint8Array | null = null;

  constructor(opts: LineSplitterOptions = {}) {
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /**
   * Feeds one chunk; returns the lines it completed, in order. Never throws. The chunk is kept by
   * reference until its line completes, so the caller must not reuse its buffer (stream chunks
   * are never reused).
   */
  push(chunk: Uint8Array): FramedLine[] {
    const out: FramedLine[] = [];
    this.stats.bytesIn += chunk.length;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      this.stats.bytesScanned += nl + 1 - start;
      this.finishLine(chunk.subarray(start, nl), out);
      start = nl + 1;
    }
    this.stats.bytesScanned += chunk.length - start;
    if (start < chunk.length) this.keep(chunk.subarray(start));
    return out;
  }

  /** Signals EOF: returns the last line if the stream did not end with a newline. */
  end(): FramedLine[] {
    const out: FramedLine[] = [];
    if (this.pendingBytes > 0 || this.overlong) this.finishLine(new Uint8Array(0), out);
    return out;
  }

  private keep(piece: Uint8Array): void {
    if (this.overlong) return;
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.overlong = this.sample(piece);
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private finishLine(tail: Uint8Array, out: FramedLine[]): void {
    if (!this.overlong && this.pendingBytes + tail.length > this.maxLineBytes) this.overlong = this.sample(tail);
    if (this.overlong) {
      out.push(this.overlong);
      this.stats.invalidLines++;
      this.overlong = null;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    let bytes = this.pending.length === 0 ? tail : this.join(tail);
    this.pending = [];
    this.pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (bytes.length === 0) return;
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      out.push(bytes);
      this.stats.invalidLines++;
      return;
    }
    if (!/\S/.test(text)) return;
    out.push(text);
    this.stats.lines++;
  }

  /** The first bytes of an over-long line, copied so the pieces themselves can be released. */
  private sample(tail: Uint8Array): Uint8Array {
    const first = this.pending[0] ?? tail;
    return first.slice(0, OVERLONG_SAMPLE_BYTES);
  }

  /** Joins the pending pieces and `tail` into one buffer: the only copy a line ever gets. */
  private join(tail: Uint8Array): Uint8Array {
    const joined = concat(this.pending, this.pendingBytes, tail);
    this.stats.bytesCopied += joined.length;
    return joined;
  }
}

export interface ReadLinesOptions {
  /** Supply one to read its `stats` afterwards. */
  splitter?: LineSplitter;
  /** Aborting stops reading (the stream is cancelled) and ends the iteration. */
  signal?: AbortSignal;
}

/**
 * Reads a byte stream as framed lines (see `FramedLine`). Ends at EOF or when `signal` aborts;
 * rejects only if the stream itself errors.
 */
export async function* readLines(stream: ReadableStream<Uint8Array>, opts: ReadLinesOptions = {}): AsyncGenerator<FramedLine> {
  const splitter = opts.splitter ?? new LineSplitter();
  // Cancelling (in `chunks`) is what lets an abort end the loop even while a grandchild keeps the pipe open.
  for await (const chunk of chunks(stream, opts.signal)) yield* splitter.push(chunk);
  yield* splitter.end();
}
