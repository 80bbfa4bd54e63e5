/**
 * Server-sent events parsing (HTML living standard, "Interpreting an event stream"), for the
 * Streamable HTTP and legacy HTTP+SSE transports (MCP 2025-11-25, basic/transports): bytes →
 * events. One leading BOM is dropped; lines end with `\r\n`, `\n` or `\r`; `data:` lines join
 * with `\n`; `event:`, `id:` (ignored when it contains NUL) and `retry:` (ASCII digits only) fields;
 * `:` comments; an event is dispatched by a blank line, and an unfinished one is dropped at EOF.
 *
 * Linear in the input: each byte is scanned for a line end once and copied at most once (a line
 * spanning several chunks is joined once, when it ends); only field values are decoded, each once.
 * The join goes into one buffer reused by every parser (up to 16 MiB), because a fresh multi-megabyte
 * buffer costs more in page faults than the copy itself: joining a 10 MB `data:` line into memory
 * already mapped saves about 3 ms of CPU (bench/RESULTS.md, Streamable HTTP 10 MB results).
 */
import { batches } from "./byte-stream.ts";

/** One dispatched event. `id` is the stream's last event ID at dispatch ("" when none yet). */
export interface SseEvent {
  /** The `event:` field, "message" when absent. */
  type: string;
  data: string;
  id: string;
}

export interface SseParserOptions {
  /**
   * Largest event kept, in bytes of its lines (default 256 MiB). A longer one is dropped and
   * counted in `stats.dropped`, so a server that never ends an event cannot exhaust memory.
   */
  maxEventBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = [0xef, 0xbb, 0xbf];
const DEFAULT_MAX_EVENT_BYTES = 256 * 1024 * 1024;
/** Largest join buffer kept for reuse (bytes); a longer line gets a buffer of its own. */
const REUSED_JOIN_MAX = 16 * 1024 * 1024;
/**
 * The join buffer all parsers share. Safe to share: a parser fills it and decodes what it needs out
 * of it within one synchronous `finishLine`, and nothing keeps a view of it afterwards.
 */
let reusedJoin = new Uint8Array(0);

/** Push-style parser: `push` each chunk, then `end` at EOF. Never throws. */
export class SseParser {
  /** The last event ID buffer: what `Last-Event-ID` carries when resuming this stream. */
  lastEventId = "";
  /** The reconnection time from the last valid `retry:` field, in ms; undefined when none came. */
  retryMs: number | undefined;
  /** Work counters, so tests can assert on work done rather than wall time. */
  readonly stats = { bytesIn: 0, bytesScanned: 0, bytesCopied: 0, events: 0, dropped: 0 };
  // ignoreBOM: a U+FEFF that starts a field value is content; only the stream's first one is dropped.
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly maxEventBytes: number;
  /** Bytes of a possible leading BOM seen so far; -1 once decided. */
  private bomSeen = 0;
  /** A CR ended the last line: an LF that starts the next chunk belongs to it. */
  private afterCR = false;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private data: string[] = [];
  private type = "";
  private eventBytes = 0;
  private overlong = false;

  constructor(opts: SseParserOptions = {}) {
    this.maxEventBytes = opts.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  }

  /** Feeds one chunk; returns the events it completed, in order. Keeps `chunk` by reference until its line ends. */
  push(chunk: Uint8Array): SseEvent[] {
    const out: SseEvent[] = [];
    this.stats.bytesIn += chunk.length;
    let start = this.skipBom(chunk);
    if (this.afterCR && start < chunk.length) {
      this.afterCR = false;
      if (chunk[start] === LF) start++;
    }
    let at = start;
    // Next LF and CR at or after `at` (-1: none in this chunk), each searched for once per byte.
    let lf = -2;
    let cr = -2;
    while (at < chunk.length) {
      if (lf !== -1 && lf < at) lf = chunk.indexOf(LF, at);
      if (cr !== -1 && cr < at) cr = chunk.indexOf(CR, at);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      this.stats.bytesScanned += end + 1 - at;
      this.finishLine(chunk.subarray(start, end), out);
      at = end + 1;
      if (chunk[end] === CR) {
        if (at === chunk.length) this.afterCR = true;
        else if (chunk[at] === LF) at++;
      }
      start = at;
    }
    this.stats.bytesScanned += chunk.length - at;
    if (start < chunk.length) this.keep(chunk.subarray(start));
    return out;
  }

  /** Signals EOF. An event without its blank line is dropped (the standard's rule), so this returns none. */
  end(): SseEvent[] {
    this.pending = [];
    this.pendingBytes = 0;
    this.resetEvent();
    return [];
  }

  /** Skips a BOM at the very start of the stream, even one split across chunks; returns where content starts. */
  private skipBom(chunk: Uint8Array): number {
    if (this.bomSeen < 0) return 0;
    let i = 0;
    while (i < chunk.length && this.bomSeen < 3 && chunk[i] === BOM[this.bomSeen]) {
      i++;
      this.bomSeen++;
    }
    if (this.bomSeen === 3) {
      this.bomSeen = -1;
      return i;
    }
    if (i < chunk.length) {
      // Not a BOM after all: the bytes held back are content (at most two, so never an allocation of note).
      const held = this.bomSeen - i;
      this.bomSeen = -1;
      if (held > 0) this.keep(new Uint8Array(BOM.slice(0, held)));
      return 0;
    }
    return chunk.length;
  }

  private keep(piece: Uint8Array): void {
    if (this.overlong) return;
    if (this.eventBytes + this.pendingBytes + piece.length > this.maxEventBytes) {
      this.overlong = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private finishLine(tail: Uint8Array, out: SseEvent[]): void {
    const line = this.pending.length === 0 ? tail : this.join(tail);
    this.pending = [];
    this.pendingBytes = 0;
    if (line.length === 0) return this.dispatch(out);
    if (this.overlong) return;
    this.eventBytes += line.length;
    if (this.eventBytes > this.maxEventBytes) {
      this.overlong = true;
      return;
    }
    if (line[0] === COLON) return; // A comment, often a keep-alive.
    const colon = line.indexOf(COLON);
    const nameEnd = colon === -1 ? line.length : colon;
    let valueStart = colon === -1 ? line.length : colon + 1;
    if (line[valueStart] === SPACE) valueStart++;
    const name = this.decoder.decode(line.subarray(0, nameEnd));
    const value = () => this.decoder.decode(line.subarray(valueStart));
    switch (name) {
      case "data":
        this.data.push(value());
        break;
      case "event":
        this.type = value();
        break;
      case "id": {
        const id = value();
        if (!id.includes("\0")) this.lastEventId = id;
        break;
      }
      case "retry": {
        const digits = value();
        if (/^[0-9]+$/.test(digits)) this.retryMs = Number(digits);
        break;
      }
      // Any other field is ignored, as the standard says.
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (this.overlong) {
      this.stats.dropped++;
    } else if (this.data.length > 0) {
      out.push({ type: this.type || "message", data: this.data.join("\n"), id: this.lastEventId });
      this.stats.events++;
    }
    this.resetEvent();
  }

  private resetEvent(): void {
    this.data = [];
    this.type = "";
    this.eventBytes = 0;
    this.overlong = false;
  }

  /**
   * Joins the pending pieces and `tail` into one buffer: the only copy a line ever gets. The view
   * returned is valid only until the next join (the shared buffer), so only decoded text leaves it.
   */
  private join(tail: Uint8Array): Uint8Array {
    const length = this.pendingBytes + tail.length;
    let into: Uint8Array;
    if (length > REUSED_JOIN_MAX) into = new Uint8Array(length);
    else {
      if (reusedJoin.length < length) reusedJoin = new Uint8Array(Math.min(REUSED_JOIN_MAX, 2 ** Math.ceil(Math.log2(length))));
      into = reusedJoin;
    }
    let at = 0;
    for (const piece of this.pending) {
      into.set(piece, at);
      at += piece.length;
    }
    into.set(tail, at);
    this.stats.bytesCopied += length;
    return into.subarray(0, length);
  }
}

export interface ReadEventsOptions {
  /** Supply one to read `lastEventId`, `retryMs` and `stats` as the stream goes. */
  parser?: SseParser;
  /** Aborting cancels the stream and ends the iteration. */
  signal?: AbortSignal;
}

/** Reads a byte stream as SSE events. Ends at EOF or on abort; rejects only when the stream itself errors. */
export async function* readEvents(stream: ReadableStream<Uint8Array>, opts: ReadEventsOptions = {}): AsyncGenerator<SseEvent> {
  const parser = opts.parser ?? new SseParser();
  for await (const batch of batches(stream, opts.signal)) for (const chunk of batch) yield* parser.push(chunk);
  parser.end();
}
