/**
 * `--agents` values that cannot be read: one line each saying what was wrong, and where a path
 * is not read at all (the session, host mode), that only -p reads a file.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { loadAgents } from "../../../../lib/agent/subagents/load.ts";
import { tempDir } from "../../../support/run.ts";

const load = (flag: string, fileAllowed: boolean) => () =>
  loadAgents({ cwd: tempDir(), env: { CLAUDE_CONFIG_DIR: tempDir() }, flag, fileAllowed, log: () => {} });

test("a path given where only JSON is read says that only -p reads a file", () => {
  expect(load("agents.json", false)).toThrow("--agents: not valid JSON (a file's path is read only with -p; give the JSON itself): ");
});

test("JSON that does not parse is said plainly, without the note about paths", () => {
  expect(load("{not json", false)).toThrow(/^--agents: not valid JSON: /);
});

test("with -p, a missing file is named as missing", () => {
  const missing = join(tempDir(), "agents.json");
  expect(load(missing, true)).toThrow(`--agents ${missing}: no such file (give the agents as JSON text or a file's path)`);
});
