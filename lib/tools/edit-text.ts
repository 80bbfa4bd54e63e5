/**
 * The string replacement behind Edit, aware of line endings: matching ignores the difference
 * between CRLF and LF, and text outside the matched spans is kept byte for byte, so a CRLF file
 * stays CRLF, an LF file never gains a CR, and a mixed file stays exactly as mixed.
 */

export type ReplaceResult = { ok: true; text: string; count: number } | { ok: false; count: number };

/**
 * Replaces `oldString` by `newString` in `text`. Both strings are compared with CRLF read as LF.
 * Each replacement's newlines are written as the matched span's own line ending (its majority;
 * a span without newlines takes the ending of the line it sits on).
 * Returns `{ok: false, count: 0}` when absent and `{ok: false, count: n}` when there are n > 1
 * matches and `replaceAll` is false; `count` in a success is the number of replacements.
 * `oldString` must not be empty (the caller decides what an empty one means).
 */
export function replaceInText(text: string, oldString: string, newString: string, replaceAll: boolean): ReplaceResult {
  const view = new LfView(text);
  const needle = oldString.replaceAll("\r\n", "\n");
  const replacement = newString.replaceAll("\r\n", "\n");
  const starts: number[] = [];
  for (let at = view.text.indexOf(needle); at !== -1; at = view.text.indexOf(needle, at + needle.length)) {
    starts.push(at);
  }
  if (starts.length === 0 || (starts.length > 1 && !replaceAll)) return { ok: false, count: starts.length };
  let out = "";
  let copied = 0;
  for (const start of starts) {
    const end = start + needle.length;
    const eol = view.endingFor(start, end);
    out += text.slice(copied, view.toOriginal(start));
    out += eol === "\n" ? replacement : replacement.replaceAll("\n", eol);
    copied = view.toOriginal(end);
  }
  return { ok: true, text: out + text.slice(copied), count: starts.length };
}

/** `text` with every CRLF read as LF, and the way back to indices in the original. */
class LfView {
  readonly text: string;
  /** Indices in `this.text` of the "\n"s that were "\r\n" in the original, ascending. */
  private readonly crlf: number[] = [];

  constructor(original: string) {
    let out = "";
    let from = 0;
    for (let at = original.indexOf("\r\n"); at !== -1; at = original.indexOf("\r\n", at + 2)) {
      out += original.slice(from, at);
      this.crlf.push(out.length);
      out += "\n";
      from = at + 2;
    }
    this.text = out + original.slice(from);
  }

  /** The original index of view index `i` (a CRLF's "\n" maps to its "\r"). */
  toOriginal(i: number): number {
    return i + this.crlfBefore(i);
  }

  /** The line ending replacement text in view span [start, end) should use. */
  endingFor(start: number, end: number): "\n" | "\r\n" {
    const crlf = this.crlfBefore(end) - this.crlfBefore(start);
    let newlines = 0;
    for (let at = this.text.indexOf("\n", start); at !== -1 && at < end; at = this.text.indexOf("\n", at + 1)) newlines++;
    const lf = newlines - crlf;
    if (crlf !== lf) return crlf > lf ? "\r\n" : "\n";
    const next = this.text.indexOf("\n", end);
    if (next !== -1) return this.isCrlf(next) ? "\r\n" : "\n";
    const previous = start > 0 ? this.text.lastIndexOf("\n", start - 1) : -1;
    return previous !== -1 && this.isCrlf(previous) ? "\r\n" : "\n";
  }

  private isCrlf(i: number): boolean {
    return this.crlfBefore(i + 1) - this.crlfBefore(i) === 1;
  }

  /** How many CRLF newlines sit at view indices < i (binary search). */
  private crlfBefore(i: number): number {
    let lo = 0;
    let hi = this.crlf.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.crlf[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
