/**
 * The prompt's key decoder (lib/cli/repl/prompt/key-decoder.ts): escape sequences, paste, kitty and modifyOtherKeys.
 */
import { describe, expect, test } from "bun:test";
import { KeyDecoder } from "../../../../../lib/cli/repl/prompt/key-decoder.ts";

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
