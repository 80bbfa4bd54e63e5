/**
 * The conformance suite's four skills-over-MCP client scenarios (SEP-2640, suite 0.2.0-alpha.12):
 * no file fetched before a skill is used, and a SKILL.md whose digest, size or front matter does
 * not match the manifest refused before anything else of the skill is read; through the real
 * program's `mcp skills` and `mcp skill`.
 */
import { expect, test } from "bun:test";
import { runScenarios, SKILLS_SCENARIOS } from "./run.ts";

test("conformance: the SEP-2640 skills client scenarios pass", async () => {
  const results = await runScenarios(SKILLS_SCENARIOS, 2);
  const failed = results.filter((r) => !r.ok).map((r) => `${r.scenario}: ${r.summary}\n${r.output.slice(-3000)}`);
  expect(failed).toEqual([]);
  // SKIPPED checks count as passes in the suite's summary: each scenario must have run its one check.
  // The next suite reports an extension scenario (no spec version) as `<name> (extension)`.
  expect(results.map((r) => `${r.scenario}: ${/Passed: 1\/1, 0 failed, 0 warnings/.test(r.summary)}`)).toEqual(
    SKILLS_SCENARIOS.map((s) => `${s} (extension): true`),
  );
}, 120_000);
