/** Scoped allowed-tools grants (grants.ts) match as the same settings allow rule would (permissions/rules.ts). */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadBashGrammar } from "../../../../lib/agent/permissions/bash/grammar.ts";
import { isScopedGrant, scopedGrantAllows } from "../../../../lib/agent/skills/grants.ts";

// A scoped Bash grant matches on the shell grammar, which the catalog loads when it records one.
beforeAll(() => loadBashGrammar());

const cwd = "/project";

describe("scoped skill grants", () => {
  test("bare names and Tool(*) are not scoped; Tool(spec) is", () => {
    expect(["Bash", "Bash(*)", "mcp-tool", "Bash(git:*)", "Read(./docs/**)"].map(isScopedGrant)).toEqual([false, false, false, true, true]);
  });

  test("Bash(git:*) allows git commands only, each part of a compound one included", () => {
    const allows = (command: string) => scopedGrantAllows(["Bash(git:*)"], "Bash", { command }, undefined, cwd);
    expect(allows("git status")).toBe(true);
    expect(allows("git add . && git commit -m x")).toBe(true);
    expect(allows("git status && rm -rf /")).toBe(false);
    expect(allows("rm -rf /")).toBe(false);
  });

  test("Read(./docs/**) allows reads under docs, not elsewhere, and not other tools", () => {
    expect(scopedGrantAllows(["Read(./docs/**)"], "Read", { file_path: "/project/docs/a.md" }, undefined, cwd)).toBe(true);
    expect(scopedGrantAllows(["Read(./docs/**)"], "Read", { file_path: "/project/src/a.ts" }, undefined, cwd)).toBe(false);
    expect(scopedGrantAllows(["Read(./docs/**)"], "Bash", { command: "cat docs/a.md" }, undefined, cwd)).toBe(false);
  });

  test("bare grants and malformed ones allow nothing here", () => {
    expect(scopedGrantAllows(["Bash"], "Bash", { command: "ls" }, undefined, cwd)).toBe(false);
    expect(scopedGrantAllows(["Bash(git:*"], "Bash", { command: "git status" }, undefined, cwd)).toBe(false);
  });
});
