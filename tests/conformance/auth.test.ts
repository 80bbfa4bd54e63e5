/**
 * Every authorization scenario of the MCP conformance suite passes (or is in baseline.yml with its
 * reason). Slow (a server pair per scenario): SKIP_SLOW=1 skips it locally, never under CI.
 */
import { expect, test } from "bun:test";
import { AUTH_SCENARIOS, runScenarios } from "./run.ts";

const skip = process.env.SKIP_SLOW === "1" && !process.env.CI;

test.skipIf(skip)(
  "conformance: all client authorization scenarios",
  async () => {
    const results = await runScenarios(AUTH_SCENARIOS, 4);
    const failed = results.filter((r) => !r.ok).map((r) => `${r.scenario}: ${r.summary}\n${r.output.slice(-3000)}`);
    expect(failed).toEqual([]);
    expect(results).toHaveLength(22);
  },
  240_000,
);
