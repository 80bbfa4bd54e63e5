/**
 * Usage and cost of a run through the real program: the json and stream-json results carry the
 * four usage counters summed over every model call (servers' sampling included) and
 * `total_cost_usd` from the price table; an unknown model costs null; --verbose says it on stderr.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text, toolUse, withUsage, type Step } from "../../support/model-server.ts";
import { fixtureServer } from "../../support/run.ts";
import { lines, project, stopProjects } from "../../support/mcp.ts";

afterEach(stopProjects);

/** A turn that calls the fixture's sampling tool, the sampling reply, and the final answer. */
const script = (): Step[] => [
  withUsage(reply(toolUse("mcp__fx__sample", { prompt: "hi" })), {
    input_tokens: 1000,
    output_tokens: 50,
    cache_creation_input_tokens: 2000,
    cache_read_input_tokens: 0,
  }),
  withUsage(reply(text("sampled")), { input_tokens: 30, output_tokens: 5 }),
  withUsage(reply(text("done")), { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000 }),
];

const SUMS = { input_tokens: 1040, output_tokens: 75, cache_creation_input_tokens: 2100, cache_read_input_tokens: 2000 };
// claude-sonnet-4-6 (the default model), USD per million tokens: input 3, output 15, cache write 3.75, cache read 0.30.
const COST = (1040 * 3 + 75 * 15 + 2100 * 3.75 + 2000 * 0.3) / 1e6;

describe("usage and total_cost_usd", () => {
  test("json: the four counters summed over the run, sampling included, priced by the table", async () => {
    const p = project({ fx: fixtureServer() }, script());
    const r = await p.run("go", { args: ["--output-format", "json"] });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.usage).toEqual(SUMS);
    expect(result.total_cost_usd).toBeCloseTo(COST, 12);
  });

  test("stream-json: the result event carries the same", async () => {
    const p = project({ fx: fixtureServer() }, script());
    const r = await p.run("go", { args: ["--output-format", "stream-json"] });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(result.type).toBe("result");
    expect(result.usage).toEqual(SUMS);
    expect(result.total_cost_usd).toBeCloseTo(COST, 12);
  });

  test("a model not in the price table: usage still summed, cost null", async () => {
    const p = project({ fx: fixtureServer() }, script());
    const r = await p.run("go", { args: ["--output-format", "json", "--model", "some-proxy-model"] });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.usage).toEqual(SUMS);
    expect(result.total_cost_usd).toBeNull();
  });

  test("--verbose: one usage line on stderr at the end; stdout is the answer alone", async () => {
    const p = project({ fx: fixtureServer() }, script());
    const r = await p.run("go", { args: ["--verbose"] });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const usage = lines(r.stderr).filter((l) => l.startsWith("usage: "));
    expect(usage).toEqual([`usage: cost $${COST.toFixed(4)} · input 1040 · output 75 · cache write 2100 · cache read 2000 tokens`]);
  });
});
