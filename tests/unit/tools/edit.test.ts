/**
 * Edit on real files: exact bytes after every edit, including line endings, encodings and mode.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editTool } from "../../../lib/tools/edit.ts";
import { tempDir } from "../../support/run.ts";
import { ctxFor, errorOf, textOf } from "./support.ts";

/** A temp dir holding `name` with `bytes`; returns the dir and the path. */
function fileWith(bytes: string | Buffer, name = "f.txt") {
  const dir = tempDir();
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { dir, path };
}
const edit = (dir: string, input: Record<string, unknown>) => editTool.run(input, ctxFor(dir));
const bytesOf = (path: string) => readFileSync(path);

describe("Edit: matching", () => {
  test("replaces a unique match and confirms", async () => {
    const { dir, path } = fileWith("const a = 1;\nconst b = 2;\n");
    const out = textOf(await edit(dir, { file_path: "f.txt", old_string: "b = 2", new_string: "b = 3" }));
    expect(readFileSync(path, "utf8")).toBe("const a = 1;\nconst b = 3;\n");
    expect(out).toBe(`Edited ${path}: replaced 1 occurrence`);
  });

  test("not found: error, file untouched", async () => {
    const { dir, path } = fileWith("hello\n");
    expect(await errorOf(edit(dir, { file_path: path, old_string: "bye", new_string: "x" }))).toBe(
      `old_string was not found in ${path}; Read the file and copy the text exactly`,
    );
    expect(readFileSync(path, "utf8")).toBe("hello\n");
  });

  test("not unique: error with the count, file untouched; replace_all replaces every one", async () => {
    const { dir, path } = fileWith("x(); x(); x();\n");
    const message = await errorOf(edit(dir, { file_path: path, old_string: "x()", new_string: "y()" }));
    expect(message).toContain("matches 3 times");
    expect(message).toContain("replace_all");
    expect(readFileSync(path, "utf8")).toBe("x(); x(); x();\n");
    const out = textOf(await edit(dir, { file_path: path, old_string: "x()", new_string: "y()", replace_all: true }));
    expect(out).toContain("replaced 3 occurrences");
    expect(readFileSync(path, "utf8")).toBe("y(); y(); y();\n");
  });

  test("old_string equal to new_string is an error", async () => {
    const { dir, path } = fileWith("same\n");
    expect(await errorOf(edit(dir, { file_path: path, old_string: "same", new_string: "same" }))).toContain("identical");
  });

  test("a missing file with a non-empty old_string is an error", async () => {
    const dir = tempDir();
    expect(await errorOf(edit(dir, { file_path: "none.txt", old_string: "a", new_string: "b" }))).toBe(`File does not exist: ${join(dir, "none.txt")}`);
  });
});

describe("Edit: line endings", () => {
  test("CRLF file: an LF old_string matches and the replacement uses CRLF", async () => {
    const { dir, path } = fileWith("one\r\ntwo\r\nthree\r\n");
    await edit(dir, { file_path: path, old_string: "one\ntwo", new_string: "1\n2\n2.5" });
    expect(bytesOf(path).equals(Buffer.from("1\r\n2\r\n2.5\r\nthree\r\n"))).toBe(true);
  });

  test("LF file never gains a CR, even from a CRLF new_string", async () => {
    const { dir, path } = fileWith("a\nb\nc\n");
    await edit(dir, { file_path: path, old_string: "b\r\n", new_string: "b1\r\nb2\r\n" });
    expect(bytesOf(path).equals(Buffer.from("a\nb1\nb2\nc\n"))).toBe(true);
  });

  test("mixed file stays exactly as mixed outside the edited span", async () => {
    const { dir, path } = fileWith("l1\r\nl2\nl3\r\nl4\n");
    await edit(dir, { file_path: path, old_string: "l3", new_string: "L3a\nL3b" });
    expect(bytesOf(path).equals(Buffer.from("l1\r\nl2\nL3a\r\nL3b\r\nl4\n"))).toBe(true);
    await edit(dir, { file_path: path, old_string: "l2\n", new_string: "L2a\nL2b\n" });
    expect(bytesOf(path).equals(Buffer.from("l1\r\nL2a\nL2b\nL3a\r\nL3b\r\nl4\n"))).toBe(true);
  });
});

describe("Edit: empty old_string", () => {
  test("refused on a file with content, which stays byte-identical", async () => {
    const original = Buffer.from("keep me\r\n\u00a0“x”\n");
    const { dir, path } = fileWith(original);
    expect(await errorOf(edit(dir, { file_path: path, old_string: "", new_string: "new" }))).toContain("already has content");
    expect(bytesOf(path).equals(original)).toBe(true);
  });

  test("creates a missing file (and its folders) or fills an empty one", async () => {
    const dir = tempDir();
    await edit(dir, { file_path: "new/dir/n.txt", old_string: "", new_string: "created\n" });
    expect(readFileSync(join(dir, "new/dir/n.txt"), "utf8")).toBe("created\n");
    const empty = fileWith("");
    await edit(empty.dir, { file_path: empty.path, old_string: "", new_string: "filled\n" });
    expect(readFileSync(empty.path, "utf8")).toBe("filled\n");
  });
});

describe("Edit: encodings and mode", () => {
  test("Latin-1 file: edited in Latin-1, every other byte kept", async () => {
    const { dir, path } = fileWith(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x0a, 0xff, 0x0a]));
    const out = textOf(await edit(dir, { file_path: path, old_string: "crème", new_string: "brûlée" }));
    expect(out).toContain("kept as Latin-1");
    expect(bytesOf(path).equals(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x62, 0x72, 0xfb, 0x6c, 0xe9, 0x65, 0x0a, 0xff, 0x0a]))).toBe(true);
    expect(bytesOf(path).includes(Buffer.from("\uFFFD"))).toBe(false);
  });

  test("Latin-1 file: a new_string Latin-1 cannot store is refused, file untouched", async () => {
    const original = Buffer.from([0x70, 0x72, 0x69, 0x78, 0x3a, 0x20, 0x35, 0xa4, 0x0a]);
    const { dir, path } = fileWith(original);
    expect(await errorOf(edit(dir, { file_path: path, old_string: "prix", new_string: "€ prix" }))).toContain("not rewriting");
    expect(bytesOf(path).equals(original)).toBe(true);
  });

  test("UTF-16LE and UTF-16BE files with a BOM are edited in their encoding, BOM and CRLF kept", async () => {
    for (const bigEndian of [false, true]) {
      const encode = (s: string) => {
        const body = Buffer.from(s, "utf16le");
        if (bigEndian) body.swap16();
        return Buffer.concat([Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]), body]);
      };
      const { dir, path } = fileWith(encode("name = “old”\r\nnext\r\n"));
      await edit(dir, { file_path: path, old_string: "“old”\nnext", new_string: "“new”\nnext" });
      expect(bytesOf(path).equals(encode("name = “new”\r\nnext\r\n"))).toBe(true);
    }
  });

  test("a UTF-8 BOM is kept", async () => {
    const { dir, path } = fileWith(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a=1\n")]));
    await edit(dir, { file_path: path, old_string: "a=1", new_string: "a=2" });
    expect(bytesOf(path).equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a=2\n")]))).toBe(true);
  });

  test("curly quotes, NBSP and emoji survive inside and outside the edit", async () => {
    const { dir, path } = fileWith("say(“hi”);\u00a0// ‘x’ 🎉\nvalue = 1;\n");
    await edit(dir, { file_path: path, old_string: "value = 1", new_string: "value = “2”\u00a0" });
    expect(bytesOf(path).equals(Buffer.from("say(“hi”);\u00a0// ‘x’ 🎉\nvalue = “2”\u00a0;\n"))).toBe(true);
  });

  test("an executable file stays executable", async () => {
    const { dir, path } = fileWith("#!/bin/sh\necho old\n", "run.sh");
    chmodSync(path, 0o755);
    await edit(dir, { file_path: path, old_string: "old", new_string: "new" });
    expect(statSync(path).mode & 0o111).toBe(0o111);
    expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\necho new\n");
  });

  test("a binary file is refused, untouched", async () => {
    const original = Buffer.from([0x61, 0x00, 0x62, 0x00, 0x63]);
    const { dir, path } = fileWith(original, "b.bin");
    expect(await errorOf(edit(dir, { file_path: path, old_string: "a", new_string: "z" }))).toContain("binary file");
    expect(bytesOf(path).equals(original)).toBe(true);
  });
});
