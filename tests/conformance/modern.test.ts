/**
 * The MCP 2026-07-28 client scenarios of conformance 0.2.0-alpha.12 (request-metadata, SEP-2322
 * request state, the standard and custom HTTP headers, invalid tool headers, JSON Schema
 * 2020-12), each at spec version 2026-07-28, through the real program's inspector; and `tools_call`
 * at 2026-07-28 with the default negotiation (`initialize` first, then the probe).
 */
import { expect, test } from "bun:test";
import { HTTP_SCENARIOS_NEXT, runScenarios, type ScenarioRun } from "./run.ts";

test("conformance 0.2: the 2026-07-28 client scenarios pass", async () => {
  const runs: ScenarioRun[] = HTTP_SCENARIOS_NEXT.map((scenario) => ({ suite: "next", scenario, specVersion: "2026-07-28" }));
  const results = await runScenarios(runs, 2);
  const failed = results.filter((r) => !r.ok).map((r) => `${r.scenario}: ${r.summary}\n${r.output.slice(-3000)}`);
  expect(failed).toEqual([]);
}, 240_000);

test("conformance 0.2: tools_call at 2026-07-28 with initialize first (the default negotiation)", async () => {
  process.env.CONFORMANCE_NEGOTIATION = "default";
  try {
    const [result] = await runScenarios([{ suite: "next", scenario: "tools_call", specVersion: "2026-07-28" }], 1);
    expect([result!.ok, result!.summary]).toEqual([true, "Passed: 2/2, 0 failed, 0 warnings"]);
  } finally {
    delete process.env.CONFORMANCE_NEGOTIATION;
  }
}, 60_000);
