/**
 * The line-ending-aware replacement behind Edit, on strings.
 */
import { describe, expect, test } from "bun:test";
import { replaceInText } from "../../../lib/tools/edit-text.ts";

describe("replaceInText", () => {
  test("replaces a unique exact match", () => {
    expect(replaceInText("let a = 1;\nlet b = 2;\n", "b = 2", "b = 3", false)).toEqual({ ok: true, text: "let a = 1;\nlet b = 3;\n", count: 1 });
  });

  test("reports absence and ambiguity with the number of matches", () => {
    expect(replaceInText("abc", "x", "y", false)).toEqual({ ok: false, count: 0 });
    expect(replaceInText("x x x", "x", "y", false)).toEqual({ ok: false, count: 3 });
    expect(replaceInText("x x x", "x", "y", true)).toEqual({ ok: true, text: "y y y", count: 3 });
  });

  test("matches are non-overlapping, left to right", () => {
    expect(replaceInText("aaaa", "aa", "b", true)).toEqual({ ok: true, text: "bb", count: 2 });
  });

  test("an LF old_string matches CRLF text, and the replacement is written with CRLF", () => {
    expect(replaceInText("one\r\ntwo\r\nthree\r\n", "one\ntwo\n", "1\n2\n", false)).toEqual({ ok: true, text: "1\r\n2\r\nthree\r\n", count: 1 });
  });

  test("a CRLF old_string on LF text never adds a CR", () => {
    const result = replaceInText("one\ntwo\nthree\n", "one\r\ntwo", "1\r\n2", false);
    expect(result).toEqual({ ok: true, text: "1\n2\nthree\n", count: 1 });
  });

  test("mixed text: only the edited span follows its own endings", () => {
    const text = "a\r\nb\nc\r\nd\n";
    // Span "b\n" is LF: the new lines are LF; the CRLF lines around stay CRLF.
    expect(replaceInText(text, "b\n", "B1\nB2\n", false)).toEqual({ ok: true, text: "a\r\nB1\nB2\nc\r\nd\n", count: 1 });
    // Span "c" has no newline: its line ends in CRLF, so inserted newlines are CRLF.
    expect(replaceInText(text, "c", "C1\nC2", false)).toEqual({ ok: true, text: "a\r\nb\nC1\r\nC2\r\nd\n", count: 1 });
  });

  test("a match ending just before a CRLF keeps the CR with the line ending", () => {
    expect(replaceInText("x = 1\r\ny = 2\r\n", "x = 1", "x = 10", false)).toEqual({ ok: true, text: "x = 10\r\ny = 2\r\n", count: 1 });
  });

  test("a last line without a newline takes the ending of the line before", () => {
    expect(replaceInText("a\r\nlast", "last", "l1\nl2", false)).toEqual({ ok: true, text: "a\r\nl1\r\nl2", count: 1 });
    expect(replaceInText("single", "single", "s1\ns2", false)).toEqual({ ok: true, text: "s1\ns2", count: 1 });
  });

  test("non-ASCII text outside and inside the span is untouched", () => {
    const text = "“quoted”\u00a0x = 1; — ‘ok’ 🎉\r\n";
    expect(replaceInText(text, "x = 1", "x = ½", false)).toEqual({ ok: true, text: "“quoted”\u00a0x = ½; — ‘ok’ 🎉\r\n", count: 1 });
  });
});
