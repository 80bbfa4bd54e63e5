/**
 * The prompt's history file (lib/cli/repl/history.ts), with real files in a temp folder.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { History, HISTORY_SIZE, historyPath } from "../../../../lib/cli/repl/history.ts";
import { tempDir } from "../../../support/run.ts";

describe("history", () => {
  test("lives in $CLAUDE_CONFIG_DIR, else ~/.claude", () => {
    expect(historyPath({ CLAUDE_CONFIG_DIR: "/cfg" })).toBe("/cfg/agent_history");
    expect(historyPath({})).toEndWith("/.claude/agent_history");
  });

  test("entries are appended and loaded newest first, consecutive duplicates once", () => {
    const path = join(tempDir(), "sub", "agent_history");
    const warnings: string[] = [];
    const history = new History(path, (l) => warnings.push(l));
    expect(history.load()).toEqual([]);
    for (const entry of ["one", "two", "two", "  ", "three"]) history.add(entry);
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\ntwo\nthree\n");
    expect(new History(path, () => {}).load()).toEqual(["three", "two", "one"]);
    expect(warnings).toEqual([]);
  });

  test("a file past twice the limit is cut back to the limit", () => {
    const path = join(tempDir(), "agent_history");
    writeFileSync(path, Array.from({ length: 2 * HISTORY_SIZE + 5 }, (_, i) => `e${i}`).join("\n") + "\n");
    const loaded = new History(path, () => {}).load();
    expect(loaded).toHaveLength(HISTORY_SIZE);
    expect(loaded[0]).toBe(`e${2 * HISTORY_SIZE + 4}`);
    expect(readFileSync(path, "utf8").trimEnd().split("\n")).toHaveLength(HISTORY_SIZE);
  });

  test("an unusable folder costs one warning, not the session", () => {
    const dir = tempDir();
    // A file where the folder should be: fails for every user, root included.
    writeFileSync(join(dir, "not-a-folder"), "");
    const warnings: string[] = [];
    const history = new History(join(dir, "not-a-folder", "agent_history"), (l) => warnings.push(l));
    history.add("a");
    history.add("b");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith("warning: history: cannot save history to ");
  });
});
