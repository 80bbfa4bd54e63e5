/**
 * The head+tail accumulator that bounds command output.
 */
import { expect, test } from "bun:test";
import { HeadTailBuffer } from "../../../lib/files/output-cap.ts";

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
