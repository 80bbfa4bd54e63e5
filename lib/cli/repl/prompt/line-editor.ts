/**
 * The prompt's text buffer: multi-line text, a cursor that moves by grapheme (so an emoji or a
 * CJK character is one step), history, and large pastes held as `[pasted N lines]` placeholders
 * that `submit` expands back to the pasted text. Pure: no I/O, driven by keys (key-decoder.ts).
 */

/** A paste with more lines than this, or more characters than PASTE_CHARS, shows as a placeholder. */
export const PASTE_LINES = 10;
export const PASTE_CHARS = 1000;

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export class LineEditor {
  text = "";
  /** Cursor position: an index into `text`, always on a grapheme boundary. */
  cursor = 0;
  /** Placeholder → pasted text, for this input only. */
  private pastes = new Map<string, string>();
  /** History entries, newest first. */
  private history: string[];
  /** -1: editing a new line; otherwise the history entry shown. */
  private historyIndex = -1;
  /** The new line being typed, kept while browsing history. */
  private draft = "";

  constructor(history: string[] = []) {
    this.history = history;
  }

  /** Inserts typed text at the cursor. */
  insert(s: string): void {
    this.text = this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor);
    this.cursor += s.length;
  }

  /** Replaces the `count` characters (UTF-16 units) before the cursor with `s` (a completion that rewrites what was typed). */
  replaceBefore(count: number, s: string): void {
    const start = Math.max(0, this.cursor - count);
    this.text = this.text.slice(0, start) + s + this.text.slice(this.cursor);
    this.cursor = start + s.length;
  }

  /** Inserts pasted text: whole when short, as a placeholder when large (CRLF already normalised). */
  paste(s: string): void {
    // A paste ending in a newline (most copied blocks) has no extra, empty line to count.
    const lines = s.split("\n").length - (s.endsWith("\n") ? 1 : 0);
    if (lines <= PASTE_LINES && s.length <= PASTE_CHARS) return this.insert(s);
    let label = `[pasted ${lines} lines]`;
    for (let n = 2; this.pastes.has(label); n++) label = `[pasted ${lines} lines #${n}]`;
    this.pastes.set(label, s);
    this.insert(label);
  }

  /**
   * Enter: `\` just before the cursor continues the input on a new line (as in Claude Code) and
   * returns undefined; otherwise returns the whole input, placeholders expanded, and clears it.
   */
  enter(): string | undefined {
    if (this.text.slice(0, this.cursor).endsWith("\\")) {
      this.text = this.text.slice(0, this.cursor - 1) + this.text.slice(this.cursor);
      this.cursor--;
      this.insert("\n");
      return undefined;
    }
    return this.take();
  }

  /** The whole input with placeholders expanded; the editor is then empty. */
  take(): string {
    let out = this.text;
    for (const [label, pasted] of this.pastes) out = out.split(label).join(pasted);
    this.clear();
    return out;
  }

  /** Replaces the input (queued lines given back after an interrupt). */
  set(text: string): void {
    this.clear();
    this.insert(text);
  }

  clear(): void {
    this.text = "";
    this.cursor = 0;
    this.pastes.clear();
    this.historyIndex = -1;
  }

  /** Adds a submitted input to the front of the history (not a repeat of the newest). */
  remember(entry: string): void {
    if (entry.trim() && this.history[0] !== entry) this.history.unshift(entry);
  }

  backspace(): void {
    if (!this.cursor) return;
    const before = this.text.slice(0, this.cursor);
    const label = [...this.pastes.keys()].find((l) => before.endsWith(l));
    const start = label ? this.cursor - label.length : this.prevBoundary();
    if (label) this.pastes.delete(label);
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  delete(): void {
    if (this.cursor >= this.text.length) return;
    const end = this.nextBoundary();
    this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
  }

  left(): void {
    this.cursor = this.prevBoundary();
  }

  right(): void {
    this.cursor = this.nextBoundary();
  }

  wordLeft(): void {
    const before = this.text.slice(0, this.cursor);
    this.cursor = before.replace(/\S+\s*$|\s+$/u, "").length;
  }

  wordRight(): void {
    const m = /^\s*\S+/u.exec(this.text.slice(this.cursor));
    this.cursor += m ? m[0].length : this.text.length - this.cursor;
  }

  /** Start / end of the current line of a multi-line input. */
  home(): void {
    this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  end(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    this.cursor = nl < 0 ? this.text.length : nl;
  }

  /** Ctrl-U: deletes from the start of the line to the cursor. */
  killBefore(): void {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  /** Ctrl-K: deletes from the cursor to the end of the line. */
  killAfter(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    this.text = this.text.slice(0, this.cursor) + (nl < 0 ? "" : this.text.slice(nl));
  }

  /** Ctrl-W: deletes the word before the cursor. */
  killWord(): void {
    const end = this.cursor;
    this.wordLeft();
    this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
  }

  /** Up: the line above in a multi-line input, else the previous history entry. */
  up(): void {
    const lineStart = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    if (lineStart > 0) return this.moveLine(lineStart, this.text.lastIndexOf("\n", lineStart - 2) + 1);
    if (this.historyIndex + 1 >= this.history.length) return;
    if (this.historyIndex === -1) this.draft = this.text;
    this.showHistory(this.historyIndex + 1);
  }

  /** Down: the line below, else the next history entry (back to the draft after the newest). */
  down(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    if (nl >= 0) return this.moveLine(this.text.lastIndexOf("\n", this.cursor - 1) + 1, nl + 1);
    if (this.historyIndex < 0) return;
    this.showHistory(this.historyIndex - 1);
  }

  private showHistory(index: number): void {
    this.historyIndex = index;
    this.text = index < 0 ? this.draft : this.history[index]!;
    this.cursor = this.text.length;
  }

  /** Moves to the same column (in characters) of the line starting at `target`. */
  private moveLine(from: number, target: number): void {
    const column = this.cursor - from;
    const nl = this.text.indexOf("\n", target);
    const lineEnd = nl < 0 ? this.text.length : nl;
    this.cursor = Math.min(target + column, lineEnd);
  }

  private prevBoundary(): number {
    let last = 0;
    for (const { index } of segmenter.segment(this.text.slice(0, this.cursor))) last = index;
    return last;
  }

  private nextBoundary(): number {
    const rest = this.text.slice(this.cursor);
    for (const { segment } of segmenter.segment(rest)) return this.cursor + segment.length;
    return this.cursor;
  }
}
