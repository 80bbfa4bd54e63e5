/**
 * Markdown (CommonMark + GFM, parsed by `marked`'s lexer) rendered for the terminal: headings,
 * emphasis, inline code, fenced code with syntax colour (highlight.ts), lists, block quotes,
 * links, tables, word-wrapped to the width by display width. Nothing is dropped: a construct
 * without a rendering here (HTML, footnote definitions…) is shown as written.
 */
import { Lexer, type Token, type Tokens } from "marked";
import type { Style } from "./style.ts";
import { highlightLine } from "./highlight.ts";
import { wrapLine } from "./live-area.ts";
import { terminalText } from "../../shared/terminal-text.ts";

/** Renders `markdown` to terminal lines (no trailing newline) at `width` columns. */
export function renderMarkdown(markdown: string, width: number, style: Style): string[] {
  // The model's text may carry codes a page fed it: none of them, not even a colour, is drawn.
  return blocks(Lexer.lex(terminalText(markdown), { gfm: true }), Math.max(20, width), style);
}

function blocks(tokens: Token[], width: number, style: Style): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    if (token.type === "space") {
      if (out.length && out.at(-1) !== "") out.push("");
      continue;
    }
    out.push(...block(token, width, style));
  }
  return out;
}

function block(token: Token, width: number, style: Style): string[] {
  switch (token.type) {
    case "heading": {
      const t = token as Tokens.Heading;
      const text = inline(t.tokens, style);
      return wrapWords(t.depth === 1 ? style.underline(style.bold(text)) : style.bold(text), width);
    }
    case "paragraph":
      return wrapWords(inline((token as Tokens.Paragraph).tokens, style), width);
    case "text": {
      const t = token as Tokens.Text;
      return wrapWords(t.tokens ? inline(t.tokens, style) : t.text, width);
    }
    case "code": {
      const t = token as Tokens.Code;
      const lang = (t.lang ?? "").split(/\s/)[0] ?? "";
      return t.text.split("\n").map((l) => `  ${highlightLine(l, lang, style)}`);
    }
    case "blockquote": {
      const inner = blocks((token as Tokens.Blockquote).tokens, width - 2, style);
      return inner.map((l) => `${style.dim("│")} ${style.italic(l)}`);
    }
    case "list":
      return list(token as Tokens.List, width, style);
    case "table":
      return table(token as Tokens.Table, width, style) ?? token.raw.replace(/\n+$/, "").split("\n");
    case "hr":
      return [style.dim("─".repeat(Math.min(width, 40)))];
    default:
      // html, def and anything newer: as written.
      return token.raw.replace(/\n+$/, "").split("\n");
  }
}

function list(t: Tokens.List, width: number, style: Style): string[] {
  const out: string[] = [];
  const start = typeof t.start === "number" ? t.start : 1;
  t.items.forEach((item, i) => {
    const marker = t.ordered ? `${start + i}.` : "•";
    const box = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
    const pad = " ".repeat(marker.length + 1);
    const tokens = item.tokens.filter((tok) => tok.type !== "checkbox");
    const lines = blocks(tokens, width - pad.length, style);
    for (const [n, l] of lines.entries()) out.push(n === 0 ? `${t.ordered ? marker : style.dim(marker)} ${box}${l}` : l ? pad + l : l);
    if (t.loose && i < t.items.length - 1) out.push("");
  });
  return out;
}

/** A table with box lines; undefined when it cannot fit `width` (then it is shown as written). */
function table(t: Tokens.Table, width: number, style: Style): string[] | undefined {
  const head = t.header.map((c) => inline(c.tokens, style));
  const rows = t.rows.map((r) => r.map((c) => inline(c.tokens, style)));
  const widths = head.map((h, i) => Math.max(Bun.stringWidth(h), ...rows.map((r) => Bun.stringWidth(r[i] ?? ""))));
  const total = widths.reduce((a, b) => a + b + 3, 1);
  if (total > width) return undefined;
  const cell = (s: string, i: number) => {
    const room = widths[i]! - Bun.stringWidth(s);
    const align = t.align[i];
    const left = align === "right" ? room : align === "center" ? Math.floor(room / 2) : 0;
    return " ".repeat(left) + s + " ".repeat(room - left);
  };
  const line = (l: string, m: string, r: string) => style.dim(l + widths.map((w) => "─".repeat(w + 2)).join(m) + r);
  const row = (cells: string[]) => style.dim("│") + cells.map((c, i) => ` ${cell(c, i)} `).join(style.dim("│")) + style.dim("│");
  return [line("┌", "┬", "┐"), row(head.map(style.bold)), line("├", "┼", "┤"), ...rows.map(row), line("└", "┴", "┘")];
}

function inline(tokens: Token[] | undefined, style: Style): string {
  if (!tokens) return "";
  return tokens.map((t) => inlineToken(t, style)).join("");
}

function inlineToken(t: Token, style: Style): string {
  switch (t.type) {
    case "strong":
      return style.bold(inline((t as Tokens.Strong).tokens, style));
    case "em":
      return style.italic(inline((t as Tokens.Em).tokens, style));
    case "del":
      return style.strike(inline((t as Tokens.Del).tokens, style));
    case "codespan":
      return style.enabled ? style.cyan((t as Tokens.Codespan).text) : `\`${(t as Tokens.Codespan).text}\``;
    case "link": {
      const l = t as Tokens.Link;
      const text = inline(l.tokens, style);
      const plain = Bun.stripANSI(text);
      return plain === l.href || `mailto:${plain}` === l.href ? style.blue(text) : `${style.blue(text)} ${style.dim(`(${l.href})`)}`;
    }
    case "image": {
      const i = t as Tokens.Image;
      return style.dim(`[image: ${i.text || i.href}]`) + (i.text ? style.dim(` (${i.href})`) : "");
    }
    case "br":
      return "\n";
    case "text": {
      const x = t as Tokens.Text;
      return x.tokens ? inline(x.tokens, style) : x.text;
    }
    case "escape":
      return (t as Tokens.Escape).text;
    default:
      return t.raw;
  }
}

/**
 * Word-wraps styled text to `width` columns: breaks at spaces, words wider than a line broken by
 * character; hard line breaks kept.
 */
export function wrapWords(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    let used = 0;
    for (const word of para.split(" ")) {
      const w = Bun.stringWidth(word);
      if (used && used + 1 + w > width) {
        out.push(line);
        line = "";
        used = 0;
      }
      if (w > width) {
        const rows = wrapLine((used ? `${line} ` : line) + word, width).rows;
        out.push(...rows.slice(0, -1));
        line = rows.at(-1) ?? "";
        used = Bun.stringWidth(line);
        continue;
      }
      line = used || line ? `${line} ${word}` : word;
      used += (used ? 1 : 0) + w;
    }
    out.push(line);
  }
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** The in-progress block shown live is cut to its last lines (re-rendered at every delta). */
const MAX_PENDING_LINES = 200;

/**
 * Markdown rendered while it streams: complete blocks (ended by a blank line outside fenced
 * code, or by a closing fence) are printed for good; the block still arriving is rendered anew
 * at each delta and shown live (`pending`), so partial constructs are never printed twice.
 */
export class MarkdownStream {
  private buffer = "";
  /** Where the next unscanned line starts, and the open fence there (if any). */
  private scanned = 0;
  private fence: string | undefined;
  private printed = false;

  constructor(
    private readonly width: () => number,
    private readonly style: Style,
  ) {}

  push(delta: string): string {
    this.buffer += delta;
    let cut = 0;
    for (let nl = this.buffer.indexOf("\n", this.scanned); nl >= 0; nl = this.buffer.indexOf("\n", this.scanned)) {
      const line = this.buffer.slice(this.scanned, nl);
      this.scanned = nl + 1;
      const fence = FENCE.exec(line)?.[1];
      if (this.fence) {
        if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && !line.trim().slice(fence.length).trim()) {
          this.fence = undefined;
          cut = this.scanned;
        }
      } else if (fence) {
        this.fence = fence;
      } else if (!line.trim()) {
        cut = this.scanned;
      }
    }
    if (!cut) return "";
    const chunk = this.buffer.slice(0, cut);
    this.buffer = this.buffer.slice(cut);
    this.scanned -= cut;
    return this.render(chunk);
  }

  /** The block still arriving, rendered (shown live, not printed). */
  pending(): string[] {
    if (!this.buffer.trim()) return [];
    const tail = this.buffer.split("\n").slice(-MAX_PENDING_LINES).join("\n");
    return renderMarkdown(tail, this.width(), this.style);
  }

  end(): string {
    const rest = this.buffer;
    this.buffer = "";
    this.scanned = 0;
    this.fence = undefined;
    const out = rest.trim() ? this.render(rest) : "";
    this.printed = false;
    return out;
  }

  private render(chunk: string): string {
    const lines = renderMarkdown(chunk, this.width(), this.style);
    // A blank line that opened this chunk separated it from the one printed before.
    if (this.printed && /^[ \t]*\n/.test(chunk) && lines[0] !== "") lines.unshift("");
    if (!lines.length) return "";
    this.printed = true;
    return lines.join("\n") + "\n";
  }
}
