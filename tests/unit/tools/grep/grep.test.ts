/**
 * Grep on a real directory tree. The behaviour tests run against the TypeScript fallback, and
 * against ripgrep too when `rg` is on PATH: both must print the same lines.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createGrepTool } from "../../../../lib/tools/grep/grep.ts";
import type { GrepQuery } from "../../../../lib/tools/grep/query.ts";
import { searchFiles } from "../../../../lib/tools/grep/fallback.ts";
import { ripgrepArgs } from "../../../../lib/tools/grep/rg.ts";
import { walkFiles } from "../../../../lib/files/walk.ts";
import { tempDir } from "../../../support/run.ts";
import { ctxFor, errorOf, textOf } from "../support.ts";

/** A temp dir with `files` (path → content); later entries get later mtimes. */
function tree(files: Record<string, string | Buffer>): string {
  const dir = tempDir();
  Object.entries(files).forEach(([rel, content], i) => {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    const at = new Date(Date.UTC(2024, 0, 1) + i * 1000);
    utimesSync(path, at, at);
  });
  return dir;
}

const implementations: [string, string | null][] = [["fallback", null]];
const rg = Bun.which("rg");
if (rg) implementations.push(["ripgrep", rg]);

describe.each(implementations)("Grep (%s)", (_name, rgPath) => {
  const tool = createGrepTool({ rgPath });
  const grep = async (dir: string, input: Record<string, unknown>) => textOf(await tool.run(input, ctxFor(dir)));

  test("files_with_matches by default, newest first", async () => {
    const dir = tree({ "old.ts": "const needle = 1;\n", "none.ts": "nothing\n", "sub/new.ts": "needle()\n" });
    expect(await grep(dir, { pattern: "needle" })).toBe(`${join(dir, "sub/new.ts")}\n${join(dir, "old.ts")}`);
  });

  test("content mode prints path:line:text; -n false drops the number; -i ignores case", async () => {
    const dir = tree({ "a.txt": "alpha\nBeta\nbeta again\r\n" });
    const path = join(dir, "a.txt");
    expect(await grep(dir, { pattern: "beta", output_mode: "content" })).toBe(`${path}:3:beta again`);
    expect(await grep(dir, { pattern: "beta", output_mode: "content", "-i": true })).toBe(`${path}:2:Beta\n${path}:3:beta again`);
    expect(await grep(dir, { pattern: "alpha", output_mode: "content", "-n": false })).toBe(`${path}:alpha`);
  });

  test("context lines: -C, -A and -B, with -- between separate groups", async () => {
    const dir = tree({ "c.txt": "1\n2\nhit\n4\n5\n6\n7\nhit\n9\n" });
    const p = join(dir, "c.txt");
    expect(await grep(dir, { pattern: "hit", output_mode: "content", "-C": 1 })).toBe(
      [`${p}-2-2`, `${p}:3:hit`, `${p}-4-4`, "--", `${p}-7-7`, `${p}:8:hit`, `${p}-9-9`].join("\n"),
    );
    expect(await grep(dir, { pattern: "hit", output_mode: "content", "-A": 3 })).toBe(
      [`${p}:3:hit`, `${p}-4-4`, `${p}-5-5`, `${p}-6-6`, "--", `${p}:8:hit`, `${p}-9-9`].join("\n"),
    );
    expect(await grep(dir, { pattern: "hit", output_mode: "content", "-B": 4 })).toBe(
      [`${p}-1-1`, `${p}-2-2`, `${p}:3:hit`, `${p}-4-4`, `${p}-5-5`, `${p}-6-6`, `${p}-7-7`, `${p}:8:hit`].join("\n"),
    );
  });

  test("count mode prints path:N, in path order", async () => {
    const dir = tree({ "b.txt": "x\nx\n", "a.txt": "x\ny\n", "c.txt": "y\n" });
    expect(await grep(dir, { pattern: "x", output_mode: "count" })).toBe(`${join(dir, "a.txt")}:1\n${join(dir, "b.txt")}:2`);
  });

  test("glob and type filters, and a single file as path", async () => {
    const dir = tree({ "a.ts": "hit\n", "b.tsx": "hit\n", "c.js": "hit\n", "src/d.py": "hit\n" });
    expect(await grep(dir, { pattern: "hit", glob: "*.{ts,tsx}", output_mode: "count" })).toBe(`${join(dir, "a.ts")}:1\n${join(dir, "b.tsx")}:1`);
    expect(await grep(dir, { pattern: "hit", type: "py" })).toBe(join(dir, "src/d.py"));
    expect(await grep(dir, { pattern: "hit", glob: "src/*.py" })).toBe(join(dir, "src/d.py"));
    expect(await grep(dir, { pattern: "hit", path: "c.js", output_mode: "content" })).toBe(`${join(dir, "c.js")}:1:hit`);
  });

  test("a pattern starting with '-' is a pattern, not a flag", async () => {
    const dir = tree({ "args.txt": "run --verbose\nrun quietly\n" });
    expect(await grep(dir, { pattern: "--verbose", output_mode: "content" })).toBe(`${join(dir, "args.txt")}:1:run --verbose`);
    expect(await grep(dir, { pattern: "-v" })).toBe(join(dir, "args.txt"));
  });

  test("dot-files are searched; .git, node_modules and binary files are not", async () => {
    const dir = tree({
      ".env.example": "TOKEN=needle\n",
      ".git/config": "needle\n",
      "node_modules/m/index.js": "needle\n",
      "bin.dat": Buffer.from("needle\0\x01\x02"),
    });
    expect(await grep(dir, { pattern: "needle" })).toBe(join(dir, ".env.example"));
  });

  test("head_limit keeps the first N and says so", async () => {
    const dir = tree({ "m.txt": "m1\nm2\nm3\nm4\n" });
    const p = join(dir, "m.txt");
    expect(await grep(dir, { pattern: "m", output_mode: "content", head_limit: 2 })).toBe(
      `${p}:1:m1\n${p}:2:m2\n(Showing the first 2 of 4 results: head_limit=2.)`,
    );
  });

  test('"No matches found" when none; a bad regex and a bad mode are clear errors', async () => {
    const dir = tree({ "a.txt": "abc\n" });
    expect(await grep(dir, { pattern: "zzz" })).toBe("No matches found");
    expect(await errorOf(tool.run({ pattern: "(unclosed" }, ctxFor(dir)))).toMatch(/regular expression|regex/i);
    expect(await errorOf(tool.run({ pattern: "a", output_mode: "lines" }, ctxFor(dir)))).toContain('"output_mode" must be one of');
  });
});

describe("Grep through ripgrep: arguments", () => {
  const query: GrepQuery = { pattern: "-rf", path: "/r", mode: "content", ignoreCase: true, lineNumbers: true, before: 2, after: 0, glob: "*.sh" };

  test("the pattern follows -e and the path follows --, so neither can be read as a flag", () => {
    const args = ripgrepArgs(query);
    expect(args.slice(-4)).toEqual(["-e", "-rf", "--", "/r"]);
    expect(args).toContain("--ignore-case");
    expect(args.join(" ")).toContain("--glob *.sh");
    expect(args.join(" ")).toContain("--before-context 2");
    expect(args).not.toContain("--after-context");
  });

  test("a real rg process gets those arguments and its output becomes the result", async () => {
    const dir = tempDir();
    const fakeRg = join(dir, "rg");
    // Stands in for ripgrep: records its argv, prints one match line as rg would.
    writeFileSync(fakeRg, `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > "${dir}/argv"\necho "${dir}/x.sh:1:rm -rf build"\n`);
    chmodSync(fakeRg, 0o755);
    const out = await createGrepTool({ rgPath: fakeRg }).run({ pattern: "-rf", output_mode: "content" }, ctxFor(dir));
    expect(out).toEqual({ content: `${dir}/x.sh:1:rm -rf build` });
    const argv = readFileSync(join(dir, "argv"), "utf8").trimEnd().split("\n");
    expect(argv.slice(-4)).toEqual(["-e", "-rf", "--", dir]);
  });
});

describe("Grep fallback: an abort is seen mid-search", () => {
  const files = (n: number) => tree(Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i % 7}/f${i}.txt`, "needle\n"])));
  const query = (path: string): GrepQuery => ({
    pattern: "needle",
    path,
    mode: "files_with_matches",
    ignoreCase: false,
    lineNumbers: true,
    before: 0,
    after: 0,
  });

  test("the directory walk stops as soon as the signal aborts, while its scan is still running", async () => {
    const dir = files(200);
    const ac = new AbortController();
    const walk = walkFiles(dir, "**/*", ac.signal);
    const first = walk.next();
    // The scan runs off the main thread and cannot have answered before this line.
    ac.abort(new Error("stop"));
    expect(await errorOf(first)).toBe("stop");
  });

  test("the walk yields nothing once aborted", async () => {
    const dir = files(3);
    const ac = new AbortController();
    ac.abort(new Error("already"));
    expect(await errorOf(walkFiles(dir, "**/*", ac.signal).next())).toBe("already");
  });

  test("an abort queued behind the search (a timer, a signal handler) stops the file loop", async () => {
    const dir = files(200);
    const list: string[] = [];
    for await (const rel of walkFiles(dir, "**/*")) list.push(join(dir, rel));
    const ac = new AbortController();
    // Runs only when the search gives the event loop a turn: a loop that never does reads all 200 files.
    setImmediate(() => ac.abort());
    expect(await errorOf(searchFiles(list, /needle/, query(dir), ac.signal))).toBe("Search interrupted");
    expect(await searchFiles(list, /needle/, query(dir), new AbortController().signal)).toHaveLength(200);
  });
});
