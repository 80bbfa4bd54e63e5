/**
 * Agent core hardening, file tools: line endings, empty old_string, encodings, permissions,
 * Unicode and Read's limits, each through the whole agent on real files in a temp dir.
 * (CRLF with an LF old_string, an empty old_string on a file with content, a Latin-1 edit and an
 * executable bit are in tools.test.ts.)
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run.ts";
import { runCalls, textOf } from "./hardening-support.ts";

const bytesOf = (dir: string, name: string) => readFileSync(join(dir, name));

describe("line endings", () => {
  test("an LF file never gains a \\r, even from a new_string written with CRLF", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "lf.txt"), "alpha\nbeta\ngamma\n");
    const [result] = await runCalls(dir, ["Edit", { file_path: "lf.txt", old_string: "beta\n", new_string: "b1\r\nb2\r\n" }]);
    expect(result!.is_error).toBeUndefined();
    expect(bytesOf(dir, "lf.txt").toString("latin1")).toBe("alpha\nb1\nb2\ngamma\n");
  });

  test("a mixed file stays exactly as mixed: each edit takes the ending of the line it is on", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mixed.txt"), "one\r\ntwo\r\nthree\nfour\n");
    const results = await runCalls(
      dir,
      ["Edit", { file_path: "mixed.txt", old_string: "two", new_string: "2a\n2b" }],
      ["Edit", { file_path: "mixed.txt", old_string: "three", new_string: "3a\n3b" }],
    );
    expect(results.map((r) => r.is_error)).toEqual([undefined, undefined]);
    expect(bytesOf(dir, "mixed.txt").toString("latin1")).toBe("one\r\n2a\r\n2b\r\n3a\n3b\nfour\n");
  });
});

describe("empty old_string", () => {
  test("creates a missing file (and its folder) and fills an empty one; the refusal case is in tools.test.ts", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "empty.txt"), "");
    chmodSync(join(dir, "empty.txt"), 0o600);
    const [created, filled] = await runCalls(
      dir,
      ["Edit", { file_path: "new/fresh.txt", old_string: "", new_string: "brand new\n" }],
      ["Edit", { file_path: "empty.txt", old_string: "", new_string: "now full\n" }],
    );
    expect(created!.is_error).toBeUndefined();
    expect(textOf(created!)).toContain(join(dir, "new/fresh.txt"));
    expect(bytesOf(dir, "new/fresh.txt").toString("utf8")).toBe("brand new\n");
    expect(filled!.is_error).toBeUndefined();
    expect(bytesOf(dir, "empty.txt").toString("utf8")).toBe("now full\n");
    expect(statSync(join(dir, "empty.txt")).mode & 0o777).toBe(0o600);
  });
});

describe("encodings", () => {
  const latin1 = Buffer.from("caf\xe9 cr\xe8me\nna\xefve\n", "latin1");

  test("Read shows a Latin-1 file readably and names the encoding it assumed", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "l1.txt"), latin1);
    const [result] = await runCalls(dir, ["Read", { file_path: "l1.txt" }]);
    expect(result!.is_error).toBeUndefined();
    expect(textOf(result!)).toBe("(Decoded as Latin-1 (ISO-8859-1): the file is not UTF-8.)\n     1\tcafé crème\n     2\tnaïve");
  });

  test("an edit Latin-1 cannot store is refused with the reason, file byte-identical", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "l1.txt"), latin1);
    const [result] = await runCalls(dir, ["Edit", { file_path: "l1.txt", old_string: "crème", new_string: "crème €5" }]);
    expect(result!.is_error).toBe(true);
    expect(textOf(result!)).toContain("Latin-1");
    expect(textOf(result!)).toContain("cannot store");
    expect(bytesOf(dir, "l1.txt").equals(latin1)).toBe(true);
  });

  test("UTF-8 with one stray invalid byte: an edit elsewhere keeps every other byte, no U+FFFD", async () => {
    const dir = tempDir();
    const before = Buffer.concat([Buffer.from("naïve “quoted” "), Buffer.from([0xff]), Buffer.from(" end\n")]);
    writeFileSync(join(dir, "stray.txt"), before);
    const [result] = await runCalls(dir, ["Edit", { file_path: "stray.txt", old_string: "end", new_string: "fin" }]);
    expect(result!.is_error).toBeUndefined();
    const after = Buffer.concat([Buffer.from("naïve “quoted” "), Buffer.from([0xff]), Buffer.from(" fin\n")]);
    expect(bytesOf(dir, "stray.txt").equals(after)).toBe(true);
  });

  test("a UTF-16LE file with a BOM is text: Read shows it, Edit keeps BOM, encoding and CRLF", async () => {
    const dir = tempDir();
    const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, "utf16le")]);
    writeFileSync(join(dir, "u16.txt"), utf16("Grüße\r\nzwei\r\n"));
    const [read, edit] = await runCalls(
      dir,
      ["Read", { file_path: "u16.txt" }],
      ["Edit", { file_path: "u16.txt", old_string: "zwei\n", new_string: "zwei\ndrei ✓\n" }],
    );
    expect(read!.is_error).toBeUndefined();
    expect(textOf(read!)).toBe("(Decoded as UTF-16LE with BOM: the file is not UTF-8.)\n     1\tGrüße\n     2\tzwei");
    expect(edit!.is_error).toBeUndefined();
    expect(bytesOf(dir, "u16.txt").equals(utf16("Grüße\r\nzwei\r\ndrei ✓\r\n"))).toBe(true);
  });
});

describe("permissions", () => {
  test("Edit and Write keep a private file's exact mode", async () => {
    const dir = tempDir();
    for (const name of ["edited.env", "written.env"]) {
      writeFileSync(join(dir, name), "TOKEN=old\n");
      chmodSync(join(dir, name), 0o600);
    }
    await runCalls(
      dir,
      ["Edit", { file_path: "edited.env", old_string: "old", new_string: "new" }],
      ["Write", { file_path: "written.env", content: "TOKEN=new\n" }],
    );
    for (const name of ["edited.env", "written.env"]) {
      expect(bytesOf(dir, name).toString("utf8")).toBe("TOKEN=new\n");
      expect(statSync(join(dir, name)).mode & 0o7777).toBe(0o600);
    }
  });
});

describe("Unicode", () => {
  test("curly quotes, NBSP, combining marks, emoji and CJK survive, inside and outside the edit", async () => {
    const dir = tempDir();
    const around = "title: “Café” — 10\u00a0km\nnote: e\u0301 (decomposed), 🎉, 日本語\n";
    writeFileSync(join(dir, "u.md"), `${around}say: ‘hi’\u00a0there\n${around}`);
    const [result] = await runCalls(dir, ["Edit", { file_path: "u.md", old_string: "say: ‘hi’\u00a0there", new_string: "say: «salut»\u202f!" }]);
    expect(result!.is_error).toBeUndefined();
    expect(bytesOf(dir, "u.md").equals(Buffer.from(`${around}say: «salut»\u202f!\n${around}`, "utf8"))).toBe(true);
  });
});

describe("Read limits", () => {
  test("a 20,000-line file: the first 2000 lines and how to read on; an offset past the end is a clear error", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "big.txt"), Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const [first, last, past] = await runCalls(
      dir,
      ["Read", { file_path: "big.txt" }],
      ["Read", { file_path: "big.txt", offset: 19_999 }],
      ["Read", { file_path: "big.txt", offset: 20_001 }],
    );
    const lines = textOf(first!).split("\n");
    expect(lines[0]).toBe("     1\tline 1");
    expect(lines[1999]).toBe("  2000\tline 2000");
    expect(lines.slice(2000)).toEqual(["", "(Showing lines 1-2000 of 20000. To read more, call Read again with offset=2001.)"]);
    expect(textOf(last!)).toBe(" 19999\tline 19999\n 20000\tline 20000");
    expect(past!.is_error).toBe(true);
    expect(textOf(past!)).toBe("offset 20001 is past the end of the file, which has 20000 lines");
  });

  test("an empty file says it is empty; a very long line is cut with a marker", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "empty.txt"), "");
    writeFileSync(join(dir, "min.js"), `short\n${"x".repeat(100_000)}\nafter\n`);
    const [empty, long] = await runCalls(dir, ["Read", { file_path: "empty.txt" }], ["Read", { file_path: "min.js" }]);
    expect(empty!.is_error).toBeUndefined();
    expect(textOf(empty!)).toBe(`(The file ${join(dir, "empty.txt")} exists but is empty.)`);
    const lines = textOf(long!).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(`     2\t${"x".repeat(2000)}… [line truncated: 100000 chars]`);
    expect(lines[2]).toBe("     3\tafter");
  });
});
