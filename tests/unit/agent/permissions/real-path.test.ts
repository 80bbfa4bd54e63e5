/** Paths resolved before matching: a new file through a linked folder or a dangling link lands where the link leads. */
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { realPath } from "../../../../lib/agent/permissions/real-path.ts";
import { tempDir } from "../../../support/run.ts";

const root = tempDir("agent-real-");
mkdirSync(join(root, "protected"));
symlinkSync(join(root, "protected"), join(root, "linkdir"));
symlinkSync("protected/new.txt", join(root, "dangling"));
symlinkSync(join(root, "linkdir"), join(root, "chain"));
symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
symlinkSync(join(root, "loop-b"), join(root, "loop-a"));

test.each([
  ["a new file through a linked folder", "linkdir/new.txt", "protected/new.txt"],
  ["a new file two folders below a linked folder", "linkdir/a/b/new.txt", "protected/a/b/new.txt"],
  ["a dangling link (relative target)", "dangling", "protected/new.txt"],
  ["a chain of links", "chain/x.txt", "protected/x.txt"],
  ["an existing folder", "protected", "protected"],
  ["a plain new file", "fresh.txt", "fresh.txt"],
])("%s", (_, given, real) => expect(realPath(join(root, given))).toBe(join(root, real)));

test("a link cycle ends, as written", () => {
  expect(realPath(join(root, "loop-a", "x"))).toContain("loop-");
});
