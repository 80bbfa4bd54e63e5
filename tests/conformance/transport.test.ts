/**
 * The conformance suite's transport scenarios (`initialize`, `tools_call`, `sse-retry`: the
 * handshake, a tool call over Streamable HTTP, and a reply stream resumed with Last-Event-ID after
 * the server's retry delay) and `elicitation-sep1034-client-defaults` (a form answered with its
 * defaults under `--elicitation accept-defaults`), through the real program's inspector.
 */
import { expect, test } from "bun:test";
import { HTTP_SCENARIOS, runScenarios } from "./run.ts";

test("conformance: the client transport scenarios pass", async () => {
  const results = await runScenarios(HTTP_SCENARIOS, 2);
  const failed = results.filter((r) => !r.ok).map((r) => `${r.scenario}: ${r.summary}\n${r.output.slice(-3000)}`);
  expect(failed).toEqual([]);
  expect(results.map((r) => `${r.scenario}: ${r.summary.match(/Passed: (\d+)\/\1, 0 failed, 0 warnings/) !== null}`)).toEqual(
    HTTP_SCENARIOS.map((s) => `${s}: true`),
  );
}, 120_000);
