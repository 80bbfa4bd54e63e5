/** SamplingBudget (lib/agent/mcp/sampling-budget.ts): the budget refuses, the rate limit delays, maxTokens is capped. A clock of our own: no waiting. */
import { describe, expect, test } from "bun:test";
import { BURST, SamplingBudget } from "../../../../lib/agent/mcp/sampling-budget.ts";
import { McpError } from "../../../../lib/mcp/protocol/errors.ts";

function budget(limits = { maxRequests: 50, maxTokens: 8192, perSecond: 5 }) {
  let now = 0;
  const waits: number[] = [];
  const lines: string[] = [];
  const b = new SamplingBudget(
    limits,
    (l) => lines.push(l),
    () => now,
    async (ms) => {
      waits.push(ms);
    },
  );
  return { b, waits, lines, advance: (ms: number) => (now += ms) };
}

describe("SamplingBudget", () => {
  test("a burst passes at once; the next requests wait for the rate; time refills the bucket", async () => {
    const { b, waits, advance } = budget();
    for (let i = 0; i < BURST; i++) await b.take("fx");
    expect(waits).toEqual([]);
    await b.take("fx");
    await b.take("fx");
    expect(waits).toEqual([200, 400]);
    advance(10_000);
    await b.take("fx");
    expect(waits).toHaveLength(2);
  });

  test("past the budget every request is refused with -1, and said once; other servers keep theirs", async () => {
    const { b, lines } = budget({ maxRequests: 3, maxTokens: 100, perSecond: 1000 });
    for (let i = 0; i < 3; i++) await b.take("fx");
    for (let i = 0; i < 2; i++) {
      const refused = await b.take("fx").catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(-1);
    }
    expect(lines).toEqual(['MCP server "fx" used its sampling budget (3 requests this run, MCP_SAMPLING_MAX_REQUESTS): further requests are refused']);
    await b.take("other");
  });

  test("maxTokens: a larger ask is lowered to the cap; none or nonsense is 1024", () => {
    const { b } = budget();
    expect(b.maxTokens(1_000_000)).toBe(8192);
    expect(b.maxTokens(100)).toBe(100);
    expect(b.maxTokens(undefined)).toBe(1024);
    expect(b.maxTokens(-5)).toBe(1024);
    expect(b.maxTokens("9")).toBe(1024);
  });
});
