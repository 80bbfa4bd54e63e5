/**
 * The one truncation helper (a prefix and a note) and the head+tail accumulator that bounds command output.
 */
import { expect, test } from "bun:test";
import { HeadTailBuffer, prefix, truncate } from "../../../lib/files/truncate.ts";

test("truncate: text that fits is returned as is, the note is not called", () => {
  expect(truncate("abc", 3, () => "NOTE")).toBe("abc");
});

test("truncate: a longer text keeps its first maxChars characters, then the note told the lengths", () => {
  expect(truncate("abcdef", 4, ({ total, kept }) => ` [${kept} of ${total}]`)).toBe("abcd [4 of 6]");
});

test("truncate never keeps half a surrogate pair", () => {
  expect(truncate("ab😀cd", 3, ({ kept }) => `|${kept}`)).toBe("ab|2");
  expect(prefix("😀", 1)).toBe("");
  expect(prefix("ab", 0)).toBe("");
});

test("the head+tail buffer never splits a surrogate pair at either cut", () => {
  const b = new HeadTailBuffer(3, 3);
  b.append("ab😀" + "x".repeat(20) + "😀yz");
  const text = b.toString();
  expect(text.isWellFormed()).toBe(true);
  expect(text).toStartWith("ab\n");
  expect(text).toEndWith("yz");
});

test("keeps everything while under the limits", () => {
  const b = new HeadTailBuffer(5, 5);
  b.append("abc");
  b.append("defgh");
  expect(b.omitted).toBe(0);
  expect(b.toString()).toBe("abcdefgh");
});

test("keeps the head and the tail and says how much was omitted", () => {
  const b = new HeadTailBuffer(4, 3);
  for (const chunk of ["HEAD", "x".repeat(1000), "y".repeat(500), "TAIL"]) b.append(chunk);
  expect(b.omitted).toBe(1508 - 7);
  expect(b.toString()).toBe(`HEAD\n\n... [${1508 - 7} characters of output omitted] ...\n\nAIL`);
});

test("many small appends keep only the last tail characters", () => {
  const b = new HeadTailBuffer(2, 3);
  for (let i = 0; i < 100; i++) b.append(String(i % 10));
  expect(b.toString().endsWith("789")).toBe(true);
  expect(b.toString().startsWith("01")).toBe(true);
  expect(b.omitted).toBe(95);
});
