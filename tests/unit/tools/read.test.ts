/**
 * Read on real files in a temporary directory.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTool } from "../../../lib/tools/read.ts";
import { tempDir } from "../../support/run.ts";
import { ctxFor, errorOf, textOf } from "./support.ts";

const read = async (dir: string, input: Record<string, unknown>) => textOf(await readTool.run(input, ctxFor(dir)));

describe("Read", () => {
  test("numbers lines like cat -n, resolving a relative path against cwd", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "first\n\tsecond\nthird");
    expect(await read(dir, { file_path: "a.txt" })).toBe("     1\tfirst\n     2\t\tsecond\n     3\tthird");
  });

  test("CRLF lines are shown without the CR", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "w.txt"), "a\r\nb\r\n");
    expect(await read(dir, { file_path: join(dir, "w.txt") })).toBe("     1\ta\n     2\tb");
  });

  test("a missing file and a directory are clear errors", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    expect(await errorOf(readTool.run({ file_path: "nope.txt" }, ctxFor(dir)))).toBe(`File does not exist: ${join(dir, "nope.txt")}`);
    expect(await errorOf(readTool.run({ file_path: "sub" }, ctxFor(dir)))).toContain(`${join(dir, "sub")} is a directory`);
  });

  test("a FIFO is refused instead of blocking the call", async () => {
    const dir = tempDir();
    expect(Bun.spawnSync(["mkfifo", join(dir, "pipe")]).exitCode).toBe(0);
    expect(await errorOf(readTool.run({ file_path: "pipe" }, ctxFor(dir)))).toBe(`${join(dir, "pipe")} is not a regular file`);
  });

  test("a 20,000-line file returns its first 2000 lines and says how to read on", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "big.txt"), Array.from({ length: 20000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const out = await read(dir, { file_path: "big.txt" });
    const lines = out.split("\n");
    expect(lines[0]).toBe("     1\tline 1");
    expect(lines[1999]).toBe("  2000\tline 2000");
    expect(out).not.toContain("line 2001");
    expect(out).toContain("Showing lines 1-2000 of 20000");
    expect(out).toContain("offset=2001");
    expect(await read(dir, { file_path: "big.txt", offset: 2001, limit: 2 })).toBe(
      "  2001\tline 2001\n  2002\tline 2002\n\n(Showing lines 2001-2002 of 20000. To read more, call Read again with offset=2003.)",
    );
    expect(await read(dir, { file_path: "big.txt", offset: 19999 })).toBe(" 19999\tline 19999\n 20000\tline 20000");
  });

  test("an offset past the end is a clear error", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "s.txt"), "1\n2\n3\n");
    expect(await errorOf(readTool.run({ file_path: "s.txt", offset: 10 }, ctxFor(dir)))).toBe("offset 10 is past the end of the file, which has 3 lines");
  });

  test("an empty file says so", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "e.txt"), "");
    expect(await read(dir, { file_path: "e.txt" })).toContain("exists but is empty");
  });

  test("lines over 2000 characters are cut with a marker", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "long.txt"), "x".repeat(5000) + "\nshort\n");
    const [first, second] = (await read(dir, { file_path: "long.txt" })).split("\n");
    expect(first).toBe(`     1\t${"x".repeat(2000)}… [line truncated: 5000 chars]`);
    expect(second).toBe("     2\tshort");
  });

  test("a Latin-1 file is decoded as Latin-1 and the output says so", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "l1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x0a]));
    const out = await read(dir, { file_path: "l1.txt" });
    expect(out).toBe("(Decoded as Latin-1 (ISO-8859-1): the file is not UTF-8.)\n     1\tcafé\n     2\tnaïve");
  });

  test("UTF-16 with a BOM is decoded as text", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "u16.txt"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello\r\nwörld\r\n", "utf16le")]));
    expect(await read(dir, { file_path: "u16.txt" })).toBe("(Decoded as UTF-16LE with BOM: the file is not UTF-8.)\n     1\thello\n     2\twörld");
  });

  test("a binary file is refused with its size", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bin.dat"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x00, 0x00, 0x01, 0x02, 0x03]));
    expect(await errorOf(readTool.run({ file_path: "bin.dat" }, ctxFor(dir)))).toBe(
      `${join(dir, "bin.dat")} is a binary file (10 bytes); it cannot be shown as text`,
    );
  });

  test("a PNG comes back as an image block", async () => {
    const dir = tempDir();
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
    writeFileSync(join(dir, "pixel.png"), png);
    const out = await readTool.run({ file_path: "pixel.png" }, ctxFor(dir));
    expect(out.content).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: png.toString("base64") } }]);
  });

  test("bad input is a one-line error, not a crash", async () => {
    const dir = tempDir();
    expect(await errorOf(readTool.run({}, ctxFor(dir)))).toBe('Invalid input: "file_path" is required and must be a string');
    expect(await errorOf(readTool.run({ file_path: "a", limit: "lots" }, ctxFor(dir)))).toBe('Invalid input: "limit" must be an integer ≥ 1');
  });
});
