/**
 * The live area at the bottom of the terminal: the rows that change (status, queued inputs, the
 * prompt, completion candidates) redrawn in place under the conversation, which is printed above
 * them as ordinary lines and so scrolls into the terminal's own scrollback. Rows are wrapped here,
 * by display width (Bun.stringWidth, so CJK and emoji count two cells, SGR codes none), never by
 * the terminal, so the area always knows how many rows it occupies and where its cursor is.
 * Everything drawn passes ourColoursOnly first: this object's cursor codes are the only others sent.
 */
import { ourColoursOnly } from "../../shared/terminal-text.ts";

export interface LiveOutput {
  write(s: string): unknown;
  columns?: number;
  rows?: number;
}

/** One frame: logical lines (they may be wider than the terminal) and where the cursor goes. */
export interface Frame {
  lines: string[];
  /** The cursor after `index` characters of line `line`; hidden when absent. */
  cursor?: { line: number; index: number };
}

const ESC = "\x1b[";
const SGR_OR_CSI = /^\x1b\[[0-9;?]*[ -/]*[@-~]/;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Rows of `line` at `columns` cells each, and the cursor's row and column when it falls in it. */
export function wrapLine(line: string, columns: number, cursorIndex = -1): { rows: string[]; widths: number[]; cursor?: { row: number; col: number } } {
  const rows: string[] = [];
  const widths: number[] = [];
  let row = "";
  let width = 0;
  let cursor: { row: number; col: number } | undefined;
  let i = 0;
  const breakRow = () => {
    rows.push(row);
    widths.push(width);
    row = "";
    width = 0;
  };
  let want = cursorIndex >= 0;
  while (i < line.length) {
    const esc = line[i] === "\x1b" ? SGR_OR_CSI.exec(line.slice(i, i + 32)) : null;
    if (esc) {
      row += esc[0];
      i += esc[0].length;
      continue;
    }
    const g = firstGrapheme(line, i);
    const w = Bun.stringWidth(g);
    if (width + w > columns && width > 0) breakRow();
    if (want && i >= cursorIndex) {
      cursor = { row: rows.length, col: width };
      want = false;
    }
    row += g;
    width += w;
    i += g.length;
  }
  if (want) cursor = { row: rows.length, col: width };
  breakRow();
  // A cursor just past a full row sits at the start of the next one.
  if (cursor && cursor.col >= columns) {
    cursor = { row: cursor.row + 1, col: 0 };
    if (cursor.row >= rows.length) {
      rows.push("");
      widths.push(0);
    }
  }
  return { rows, widths, cursor };
}

function firstGrapheme(s: string, at: number): string {
  // Segmenting a short window is enough: a grapheme cluster is never this long in practice.
  for (const { segment } of segmenter.segment(s.slice(at, at + 64))) return segment;
  return s[at]!;
}

/** The area on one output stream. Only this object may move the cursor while it is shown. */
export class LiveArea {
  /** Plain widths of the rows drawn, for re-flow after a resize. */
  private drawnWidths: number[] = [];
  /** The row of the area the terminal cursor is on. */
  private cursorRow = 0;
  private last: Frame = { lines: [] };
  /** Columns the area was drawn at. */
  private drawnColumns: number;

  constructor(private readonly out: LiveOutput) {
    this.drawnColumns = this.columns;
  }

  private get columns(): number {
    return Math.max(10, this.out.columns ?? 80);
  }

  /** Redraws the area with `frame`. */
  render(frame: Frame): void {
    this.last = frame;
    this.out.write(`${ESC}?25l${this.erase()}${this.draw(frame)}`);
  }

  /** Prints `text` (whole lines) above the area, then redraws the area under it. */
  print(text: string): void {
    if (!text) return;
    const clean = ourColoursOnly(text);
    const body = (clean.endsWith("\n") ? clean : clean + "\n").replace(/\n/g, "\r\n");
    this.out.write(`${ESC}?25l${this.erase()}${body}${this.draw(this.last)}`);
  }

  /** The terminal was resized: rows it re-flowed are found again, then the area is drawn anew. */
  resized(): void {
    const columns = this.columns;
    if (columns !== this.drawnColumns) {
      // Terminals that re-flow turn each old row into ceil(width / columns) rows.
      const reflowed = this.drawnWidths.map((w) => Math.max(1, Math.ceil(w / columns)));
      const above = reflowed.slice(0, this.cursorRow).reduce((a, b) => a + b, 0);
      this.drawnWidths = reflowed.flatMap((n) => Array(n).fill(0) as number[]);
      this.cursorRow = above;
    }
    this.render(this.last);
  }

  /** Ctrl-L: clears the screen (the conversation stays in the history above it) and draws the area at the top. */
  clearScreen(): void {
    this.cursorRow = 0;
    this.drawnWidths = [];
    this.out.write(`${ESC}?25l${ESC}H${ESC}2J${this.draw(this.last)}`);
  }

  /** Erases the area, leaving the cursor where its top row was (before leaving the terminal). */
  clear(): void {
    this.last = { lines: [] };
    this.out.write(this.erase() + `${ESC}?25h`);
    this.drawnWidths = [];
  }

  private erase(): string {
    const up = this.cursorRow > 0 ? `${ESC}${this.cursorRow}A` : "";
    this.cursorRow = 0;
    return `${up}\r${ESC}J`;
  }

  private draw(frame: Frame): string {
    const columns = this.columns;
    this.drawnColumns = columns;
    let rows: string[] = [];
    let widths: number[] = [];
    let cursor: { row: number; col: number } | undefined;
    frame.lines.forEach((line, n) => {
      const clean = ourColoursOnly(line);
      // The cursor counts characters of the line as given: what the filter removed before it does not count.
      const at = frame.cursor?.line === n ? (clean === line ? frame.cursor.index : ourColoursOnly(line.slice(0, frame.cursor.index)).length) : -1;
      const wrapped = wrapLine(clean, columns, at);
      if (wrapped.cursor) cursor = { row: rows.length + wrapped.cursor.row, col: wrapped.cursor.col };
      rows = rows.concat(wrapped.rows);
      widths = widths.concat(wrapped.widths);
    });
    // Never taller than the screen: moving up past its top row is impossible, and would duplicate rows.
    const max = Math.max(1, (this.out.rows ?? 24) - 1);
    if (rows.length > max) {
      const start = Math.min(rows.length - max, Math.max(0, (cursor?.row ?? rows.length - 1) - max + 1));
      rows = rows.slice(start, start + max);
      widths = widths.slice(start, start + max);
      if (cursor) cursor = { row: cursor.row - start, col: cursor.col };
    }
    this.drawnWidths = widths;
    if (!rows.length) return "";
    let s = rows.map((r) => r + `${ESC}0m`).join("\r\n");
    const last = rows.length - 1;
    if (!cursor) {
      this.cursorRow = last;
      return s;
    }
    if (last > cursor.row) s += `${ESC}${last - cursor.row}A`;
    s += `\r${cursor.col ? `${ESC}${cursor.col}C` : ""}${ESC}?25h`;
    this.cursorRow = cursor.row;
    return s;
  }
}
