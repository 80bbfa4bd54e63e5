/**
 * Write on real files in a temporary directory.
 */
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeTool } from "../../../lib/tools/write.ts";
import { tempDir } from "../../support/run.ts";
import { ctxFor, errorOf, textOf } from "./support.ts";

test("creates the file and its missing parent folders, with the exact content", async () => {
  const dir = tempDir();
  const content = "“hi”\u00a0there\r\nline 2\n";
  const out = textOf(await writeTool.run({ file_path: "a/b/c.txt", content }, ctxFor(dir)));
  expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe(content);
  expect(out).toBe(`Created ${join(dir, "a/b/c.txt")} (2 lines, ${Buffer.byteLength(content)} bytes)`);
});

test("overwriting an executable script keeps it executable", async () => {
  const dir = tempDir();
  const path = join(dir, "run.sh");
  writeFileSync(path, "#!/bin/sh\necho old\n");
  chmodSync(path, 0o755);
  const out = textOf(await writeTool.run({ file_path: path, content: "#!/bin/sh\necho new\n" }, ctxFor(dir)));
  expect(out).toStartWith(`Updated ${path}`);
  expect(statSync(path).mode & 0o777).toBe(0o755);
  expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\necho new\n");
});

test("a directory at the path is a clear error", async () => {
  const dir = tempDir();
  mkdirSync(join(dir, "d"));
  expect(await errorOf(writeTool.run({ file_path: "d", content: "x" }, ctxFor(dir)))).toBe(`${join(dir, "d")} is a directory; cannot write a file there`);
});

test("missing content is an input error and writes nothing", async () => {
  const dir = tempDir();
  expect(await errorOf(writeTool.run({ file_path: "x.txt" }, ctxFor(dir)))).toBe('Invalid input: "content" is required and must be a string');
  expect(() => statSync(join(dir, "x.txt"))).toThrow();
});
