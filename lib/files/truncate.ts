/**
 * Cutting text that is too long for the model, in one place: every tool result, line or stream
 * that has a limit goes through `truncate` (a prefix and a note) or `HeadTailBuffer` (head and tail
 * of a stream). Limits are in UTF-16 code units (JavaScript string length, "characters"), and a cut
 * never leaves half a surrogate pair.
 */

/** What a note is told about the cut: the full length and how much of it was kept, in characters. */
export interface Cut {
  total: number;
  kept: number;
}

/**
 * `text` when it fits in `maxChars`; else its first `maxChars` characters (one fewer rather than
 * half a surrogate pair) followed by `note(cut)`. The note is not counted in `maxChars`.
 */
export function truncate(text: string, maxChars: number, note: (cut: Cut) => string): string {
  if (text.length <= maxChars) return text;
  const kept = prefix(text, maxChars);
  return kept + note({ total: text.length, kept: kept.length });
}

/** The first `n` characters of `s` (n - 1 when the n-th would be a lone high surrogate). */
export function prefix(s: string, n: number): string {
  if (n <= 0) return "";
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/**
 * A bounded text accumulator for command output that may be hundreds of megabytes:
 * keeps the first and the last characters and counts what falls in between, so memory
 * stays flat however much is appended.
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private total = 0;

  /** `headChars` and `tailChars` are the most characters kept from the start and from the end. */
  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}

  append(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.headChars) {
      const piece = prefix(chunk, this.headChars - this.head.length);
      this.head += piece;
      chunk = chunk.slice(piece.length);
    }
    if (chunk === "") return;
    this.tail += chunk;
    // Trim only once the tail has doubled, so appends stay amortised linear.
    if (this.tail.length > 2 * this.tailChars) this.tail = this.tail.slice(-this.tailChars);
  }

  /** Characters appended but not kept. */
  get omitted(): number {
    return this.total - this.head.length - this.keptTail().length;
  }

  /**
   * Head, then a note saying how many characters were left out when any were (and `extra`, a line
   * under it: where the whole output is), then tail.
   */
  toString(extra?: string): string {
    const tail = this.keptTail();
    const omitted = this.omitted;
    if (omitted === 0) return this.head + tail;
    return `${this.head}\n\n... [${omitted} characters of output omitted] ...${extra ? `\n${extra}` : ""}\n\n${tail}`;
  }

  /** The last `tailChars` characters, less a leading low surrogate whose pair was cut away. */
  private keptTail(): string {
    const tail = this.tail.slice(-this.tailChars);
    const first = tail.charCodeAt(0);
    const cutPair = first >= 0xdc00 && first <= 0xdfff && this.total > this.head.length + tail.length;
    return cutPair ? tail.slice(1) : tail;
  }
}
