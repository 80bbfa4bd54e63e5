/**
 * Search exclusions from Read deny rules: the glob below a searched folder, and Grep (ripgrep when
 * on PATH, and the fallback walk) and Glob leaving denied files out of the search itself.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exclusionBelow, searchExclusions } from "../../../../lib/agent/permissions/search-exclusions.ts";
import { compilePathPattern } from "../../../../lib/agent/permissions/path-rules.ts";
import { globTool } from "../../../../lib/tools/glob.ts";
import { createGrepTool } from "../../../../lib/tools/grep/grep.ts";
import { tempDir } from "../../../support/run.ts";

test.each([
  ["/p/secrets/**", "/p", "secrets/**"],
  ["/p/secrets/**", "/p/secrets", "**"],
  ["/p/secrets/**", "/p/secrets/deep", "**"],
  ["/p/secrets/**", "/q", undefined],
  ["/p/**/.env", "/p/sub", "**/.env"],
  ["/p/*/key.txt", "/p/a", "key.txt"],
  ["/p/*/key.txt", "/", "p/*/key.txt"],
  ["/p/a.txt", "/p/b", undefined],
])("%p below %p is %p", (glob, dir, rel) => expect(exclusionBelow(glob, dir)).toBe(rel));

const root = tempDir("agent-excl-");
mkdirSync(join(root, "secrets"));
writeFileSync(join(root, "secrets", "evil\nopen.txt:1:x"), "NEEDLE in a weird name\n");
writeFileSync(join(root, "secrets", "key.txt"), "NEEDLE secret\n");
writeFileSync(join(root, "open.txt"), "NEEDLE open\n");
const pattern = compilePathPattern("./secrets/**", { cwd: root, home: "/nohome", root });
const excluded = searchExclusions([pattern.glob], (p) => pattern.matches(p));
const ctx = { cwd: root, signal: new AbortController().signal, excluded };
const text = (o: { content: unknown }) => String(o.content);

const implementations: [string, string | null][] = [["fallback", null]];
const rg = Bun.which("rg");
if (rg) implementations.push(["ripgrep", rg]);

describe.each(implementations)("Grep (%s)", (_, rgPath) => {
  test("searches around the denied folder, whatever its files are named", async () => {
    const out = text(await createGrepTool({ rgPath }).run({ pattern: "NEEDLE", output_mode: "content" }, ctx));
    expect(out).toContain("NEEDLE open");
    expect(out).not.toContain("secret");
    expect(out).not.toContain("weird");
  });
  test("a glob the model gives cannot bring a denied file back", async () => {
    const out = text(await createGrepTool({ rgPath }).run({ pattern: "NEEDLE", glob: "**/key.txt" }, ctx));
    expect(out).not.toContain("key.txt");
  });
});

test("Glob lists around the denied folder", async () => {
  const out = text(await globTool.run({ pattern: "**/*" }, ctx));
  expect(out).toContain("open.txt");
  expect(out).not.toContain("secrets");
});
