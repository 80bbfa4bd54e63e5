/**
 * Glob on a real directory tree.
 */
import { expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { globTool } from "../../../lib/tools/glob.ts";
import { tempDir } from "../../support/run.ts";
import { ctxFor, errorOf, textOf } from "./support.ts";

/** Creates `files` under a new temp dir; the i-th file gets mtime base + i seconds, so the last is newest. */
function tree(files: string[]): string {
  const dir = tempDir();
  files.forEach((rel, i) => {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, rel);
    const at = new Date(Date.UTC(2024, 0, 1) + i * 1000);
    utimesSync(path, at, at);
  });
  return dir;
}
const glob = async (dir: string, input: Record<string, unknown>) => textOf(await globTool.run(input, ctxFor(dir)));

test("matching files as absolute paths, most recently modified first", async () => {
  const dir = tree(["src/old.ts", "src/mid.ts", "README.md", "src/deep/new.ts"]);
  expect(await glob(dir, { pattern: "**/*.ts" })).toBe([join(dir, "src/deep/new.ts"), join(dir, "src/mid.ts"), join(dir, "src/old.ts")].join("\n"));
});

test("dot-folders are searched: .github/** and **/*.yml find the workflow", async () => {
  const dir = tree([".github/workflows/ci.yml", "config.yml"]);
  expect(await glob(dir, { pattern: ".github/**" })).toBe(join(dir, ".github/workflows/ci.yml"));
  expect(await glob(dir, { pattern: "**/*.yml" })).toBe([join(dir, "config.yml"), join(dir, ".github/workflows/ci.yml")].join("\n"));
});

test("node_modules and .git are skipped unless the pattern names them", async () => {
  const dir = tree(["index.js", "node_modules/lib/index.js", ".git/hooks/x.js"]);
  expect(await glob(dir, { pattern: "**/*.js" })).toBe(join(dir, "index.js"));
  expect(await glob(dir, { pattern: "node_modules/**/*.js" })).toBe(join(dir, "node_modules/lib/index.js"));
  expect(await glob(dir, { pattern: ".git/**" })).toBe(join(dir, ".git/hooks/x.js"));
});

test("path narrows the search, and an absolute pattern works from its own directory", async () => {
  const dir = tree(["a/x.txt", "b/y.txt"]);
  expect(await glob(dir, { pattern: "*.txt", path: "b" })).toBe(join(dir, "b/y.txt"));
  expect(await glob(tempDir(), { pattern: join(dir, "a/*.txt") })).toBe(join(dir, "a/x.txt"));
});

test("capped at 100 with a note saying how many matched", async () => {
  const dir = tree(Array.from({ length: 120 }, (_, i) => `f${String(i).padStart(3, "0")}.txt`));
  const lines = (await glob(dir, { pattern: "*.txt" })).split("\n");
  expect(lines).toHaveLength(101);
  expect(lines[0]).toBe(join(dir, "f119.txt"));
  expect(lines[99]).toBe(join(dir, "f020.txt"));
  expect(lines[100]).toContain("100 most recently modified of 120 matching files");
});

test('"No files found" when nothing matches; a missing directory is an error', async () => {
  const dir = tree(["a.txt"]);
  expect(await glob(dir, { pattern: "**/*.rs" })).toBe("No files found");
  expect(await errorOf(globTool.run({ pattern: "*", path: "nope" }, ctxFor(dir)))).toBe(`Directory does not exist: ${join(dir, "nope")}`);
});
