/**
 * The prompt's pure pieces: key decoding (escape sequences, paste, kitty / modifyOtherKeys), the
 * editor (graphemes, continuation, paste placeholders, history), wrapping by display width, and
 * the interrupt bookkeeping of the conversation.
 */
import { describe, expect, test } from "bun:test";
import { KeyDecoder } from "../../../../../lib/cli/repl/prompt/key-decoder.ts";
import { LineEditor } from "../../../../../lib/cli/repl/prompt/line-editor.ts";
import { wrapLine } from "../../../../../lib/cli/ui/live-area.ts";
import { addUserInput, INTERRUPT_MARKER, recordInterrupt } from "../../../../../lib/agent/interrupts.ts";
import { commonPrefix, completionRows } from "../../../../../lib/cli/repl/complete.ts";
import type { MessageParam } from "../../../../../lib/agent/messages.ts";
import { Conversation } from "../../../../../lib/agent/conversation.ts";
import { MarkdownStream, renderMarkdown, wrapWords } from "../../../../../lib/cli/ui/markdown.ts";
import { highlightLine } from "../../../../../lib/cli/ui/highlight.ts";
import { createStyle } from "../../../../../lib/cli/ui/style.ts";

const kinds = (keys: { kind: string; text?: string }[]) => keys.map((k) => (k.text !== undefined ? `${k.kind}:${k.text}` : k.kind));

describe("key decoder", () => {
  test("text, control keys, arrows (CSI and SS3), delete, word moves", () => {
    const d = new KeyDecoder();
    expect(kinds(d.feed("ab\x7f\r\t\x03\x04"))).toEqual(["text:ab", "backspace", "enter", "tab", "ctrl-c", "ctrl-d"]);
    expect(kinds(d.feed("\x1b[A\x1b[B\x1bOC\x1b[D\x1b[3~\x1b[H\x1b[4~\x1b[1;5D\x1bf"))).toEqual([
      "up",
      "down",
      "right",
      "left",
      "delete",
      "home",
      "end",
      "word-left",
      "word-right",
    ]);
  });

  test("a lone Esc waits for flush; a sequence split across reads is joined", () => {
    const d = new KeyDecoder();
    expect(d.feed("\x1b")).toEqual([]);
    expect(d.waiting).toBe(true);
    expect(kinds(d.feed("[A"))).toEqual(["up"]);
    expect(d.feed("\x1b")).toEqual([]);
    expect(kinds(d.flush())).toEqual(["escape"]);
    expect(d.waiting).toBe(false);
    // Esc then a typed key in one read: both arrive.
    expect(kinds(d.feed("\x1bx"))).toEqual(["escape", "text:x"]);
  });

  test("Shift+Enter and Alt+Enter are newlines: ESC CR, kitty CSI 13;2u, modifyOtherKeys CSI 27;2;13~", () => {
    const d = new KeyDecoder();
    expect(kinds(d.feed("\x1b\r\x1b[13;2u\x1b[27;2;13~\x1b[13u"))).toEqual(["newline", "newline", "newline", "enter"]);
    // kitty's disambiguate mode reports Ctrl-C, Esc and Ctrl-Z as CSI u.
    expect(kinds(d.feed("\x1b[99;5u\x1b[27u\x1b[122;5u\x1a"))).toEqual(["ctrl-c", "escape", "ctrl-z", "ctrl-z"]);
  });

  test("CRLF that a paste turned into CR CR is one break; a CR typed alone stays Enter", () => {
    const d = new KeyDecoder();
    expect(kinds(d.feed("\x1b[200~one\r\rtwo\r\r\r\rthree\x1b[201~"))).toEqual(["paste:one\ntwo\n\nthree"]);
    // A paste of LF text with single breaks keeps its blank lines.
    expect(kinds(d.feed("\x1b[200~one\rtwo\r\rthree\x1b[201~"))).toEqual(["paste:one\ntwo\n\nthree"]);
    // Not bracketed: text and CR CR in one read.
    expect(kinds(d.feed("echo hi\r\r"))).toEqual(["text:echo hi", "enter"]);
    expect(kinds(d.feed("\r"))).toEqual(["enter"]);
    expect(kinds(d.feed("\r\r"))).toEqual(["enter", "enter"]);
  });

  test("bracketed paste is one key, CRLF as LF, even split across reads and holding escapes", () => {
    const d = new KeyDecoder();
    expect(d.feed("\x1b[200~one\r\ntwo\rthr")).toEqual([]);
    expect(d.feed("ee\x1b[2")).toEqual([]);
    expect(d.feed("01~x")).toEqual([
      { kind: "paste", text: "one\ntwo\nthree" },
      { kind: "text", text: "x" },
    ]);
    expect(d.feed("\x1b[200~a\x1b[Ab\x1b[201~")).toEqual([{ kind: "paste", text: "a\x1b[Ab" }]);
  });
});

describe("line editor", () => {
  test("the cursor moves over whole graphemes: emoji, flags, CJK", () => {
    const e = new LineEditor();
    e.insert("a😀🇫🇷日");
    e.left();
    e.left();
    e.insert("|");
    expect(e.text).toBe("a😀|🇫🇷日");
    e.backspace();
    e.backspace();
    expect(e.text).toBe("a🇫🇷日");
  });

  test("\\ before Enter continues the line; Enter returns the whole input", () => {
    const e = new LineEditor();
    e.insert("one\\");
    expect(e.enter()).toBeUndefined();
    e.insert("two");
    expect(e.enter()).toBe("one\ntwo");
    expect(e.text).toBe("");
  });

  test("a large paste is a placeholder, expanded on submit, removed whole by Backspace", () => {
    const e = new LineEditor();
    const big = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n");
    e.insert("see ");
    e.paste(big);
    expect(e.text).toBe("see [pasted 20 lines]");
    expect(e.enter()).toBe(`see ${big}`);
    e.paste(big);
    e.backspace();
    expect(e.text).toBe("");
    // The final newline of a copied block ends its last line; it is not one more line.
    e.paste(`${big}\n`);
    expect(e.text).toBe("[pasted 20 lines]");
    e.backspace();
    e.paste("short\npaste");
    expect(e.text).toBe("short\npaste");
  });

  test("Up and Down move between lines, then through history, back to the draft", () => {
    const e = new LineEditor(["newest", "older"]);
    e.insert("draft");
    e.up();
    expect(e.text).toBe("newest");
    e.up();
    expect(e.text).toBe("older");
    e.down();
    e.down();
    expect(e.text).toBe("draft");
    e.set("ab\ncd");
    e.up();
    e.insert("X");
    expect(e.text).toBe("abX\ncd");
  });

  test("word and line kills", () => {
    const e = new LineEditor();
    e.insert("hello big world");
    e.killWord();
    expect(e.text).toBe("hello big ");
    e.home();
    e.killAfter();
    expect(e.text).toBe("");
  });
});

describe("wrapping by display width", () => {
  test("wide characters move to the next row whole; SGR codes take no room; the cursor follows", () => {
    expect(wrapLine("> 漢字漢", 6).rows).toEqual(["> 漢字", "漢"]);
    expect(wrapLine("\x1b[2mabc\x1b[22m", 3).rows).toEqual(["\x1b[2mabc\x1b[22m"]);
    expect(wrapLine("> 漢字漢", 6, 5).cursor).toEqual({ row: 1, col: 2 });
    // A cursor after a full row sits at the start of a new one.
    expect(wrapLine("abc", 3, 3)).toEqual({ rows: ["abc", ""], widths: [3, 0], cursor: { row: 1, col: 0 } });
  });
});

describe("interrupted turns", () => {
  const user = (text: string): MessageParam => ({ role: "user", content: [{ type: "text", text }] });

  test("the partial answer is kept, the marker follows, and the next input joins it", () => {
    const c = new Conversation("s");
    c.append(user("q1"));
    recordInterrupt(c, "half an answer  ");
    const before = addUserInput(c, [{ type: "text", text: "q2" }]);
    expect(c.messages).toEqual([
      user("q1"),
      { role: "assistant", content: [{ type: "text", text: "half an answer" }] },
      {
        role: "user",
        content: [
          { type: "text", text: INTERRUPT_MARKER },
          { type: "text", text: "q2" },
        ],
      },
    ]);
    // Rolling the turn back drops the joined input (and the marker with it).
    c.rollback(before);
    expect(c.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  test("interrupted during tools: unanswered calls are closed and the marker joins the tool results", () => {
    const c = new Conversation("s");
    c.append(user("q"));
    c.append({ role: "assistant", content: [{ type: "tool_use", id: "t", name: "Bash", input: {} }] });
    recordInterrupt(c, "");
    expect(c.messages).toHaveLength(3);
    expect(c.messages[2]!.content.map((b) => b.type)).toEqual(["tool_result", "text"]);
  });
});

describe("completion listing", () => {
  test("common prefix; candidates in columns, capped with a count", () => {
    expect(commonPrefix(["/mcp", "/mcp__fx__a", "/model"])).toBe("/m");
    expect(completionRows(["aa", "bb", "cc"], 80)).toEqual(["aa  bb  cc"]);
    const many = Array.from({ length: 100 }, (_, i) => `item${i}`);
    const rows = completionRows(many, 20);
    expect(rows).toHaveLength(5);
    expect(rows.at(-1)).toBe("… 92 more");
  });
});

describe("markdown", () => {
  const plain = createStyle(false);
  const color = createStyle(true);

  test("streamed in any pieces, it renders the same as whole; nothing is dropped", () => {
    const md = "# T\n\npara *x*\n\n```js\nlet a = 'q'; // c\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>x</div>\n\n[^1]: note";
    const stream = new MarkdownStream(() => 40, plain);
    let out = "";
    for (const ch of md) out += stream.push(ch);
    out += stream.end();
    expect(out).toBe(`${renderMarkdown(md, 40, plain).join("\n")}\n`);
    expect(out).toContain("<div>x</div>");
    expect(out).toContain("[^1]: note");
  });

  test("the block still arriving is shown live, not printed", () => {
    const stream = new MarkdownStream(() => 40, plain);
    expect(stream.push("Half a para")).toBe("");
    expect(stream.pending()).toEqual(["Half a para"]);
    expect(stream.push("graph.\n\nNext")).toBe("Half a paragraph.\n\n");
    expect(stream.pending()).toEqual(["Next"]);
  });

  test("a table too wide for the terminal is shown as written", () => {
    const md = "| aaaaaaaaaa | bbbbbbbbbb |\n|---|---|\n| 1 | 2 |";
    expect(renderMarkdown(md, 20, plain)).toEqual(md.split("\n"));
  });

  test("code is coloured: keywords, strings, numbers, comments; the text is unchanged", () => {
    const line = highlightLine('const s = "x"; // 1', "ts", color);
    expect(line).toBe('\x1b[35mconst\x1b[39m s = \x1b[32m"x"\x1b[39m; \x1b[2m// 1\x1b[22m');
    expect(Bun.stripANSI(highlightLine("x = 3 # py", "python", color))).toBe("x = 3 # py");
    expect(highlightLine("const", "ts", plain)).toBe("const");
  });

  test("words wrap at spaces by display width; a word wider than the line is broken", () => {
    expect(wrapWords("日本 語です and more", 8)).toEqual(["日本", "語です", "and more"]);
    expect(wrapWords("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  });
});
