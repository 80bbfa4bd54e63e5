/**
 * The pure pieces of caching and cost: breakpoint placement, the model table's id matching, and pricing.
 */
import { describe, expect, test } from "bun:test";
import { withBreakpoints } from "../../../../lib/agent/model/cache.ts";
import type { MessageParam } from "../../../../lib/agent/messages.ts";
import { contextWindow, modelFacts } from "../../../../lib/agent/model/model-table.ts";
import { costUsd, UsageMeter } from "../../../../lib/agent/model/usage.ts";

const E = { type: "ephemeral" };

describe("withBreakpoints", () => {
  test("marks the last cacheable block of the last two messages and leaves the history untouched", () => {
    const history: MessageParam[] = [
      { role: "user", content: [{ type: "text", text: "a" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "b" },
          { type: "thinking", thinking: "…" },
        ],
      },
      { role: "user", content: [{ type: "text", text: "c" }] },
    ];
    const before = JSON.stringify(history);
    const out = withBreakpoints(history);
    expect(JSON.stringify(history)).toBe(before);
    expect(out[0]).toBe(history[0]!);
    expect(out[1]!.content).toEqual([
      { type: "text", text: "b", cache_control: E },
      { type: "thinking", thinking: "…" },
    ]);
    expect(out[2]!.content).toEqual([{ type: "text", text: "c", cache_control: E }]);
  });

  test("a string content becomes one text block carrying the breakpoint", () => {
    const out = withBreakpoints([{ role: "user", content: "hello" as unknown as MessageParam["content"] }]);
    expect(out[0]!.content).toEqual([{ type: "text", text: "hello", cache_control: E }]);
  });

  test("no messages, no breakpoints", () => {
    expect(withBreakpoints([])).toEqual([]);
  });
});

describe("the model table", () => {
  test("dated, -0 and -latest ids name their family; anything else is unknown", () => {
    expect(modelFacts("claude-sonnet-4-5-20250929")).toBe(modelFacts("claude-sonnet-4-5")!);
    expect(modelFacts("claude-opus-4-0")).toBe(modelFacts("claude-opus-4")!);
    expect(contextWindow("claude-sonnet-4-6")).toBe(1_000_000);
    expect(contextWindow("claude-haiku-4-5-20251001")).toBe(200_000);
    expect(modelFacts("gpt-4o")).toBeUndefined();
    expect(modelFacts("toString")).toBeUndefined();
  });

  test("cost: every counter at its own rate; unknown model is null", () => {
    const u = { input_tokens: 1e6, output_tokens: 1e6, cache_creation_input_tokens: 1e6, cache_read_input_tokens: 1e6 };
    expect(costUsd("claude-sonnet-4-6", u)).toBeCloseTo(3 + 15 + 3.75 + 0.3, 10);
    expect(costUsd("mystery", u)).toBeNull();
  });

  test("the meter: sums, and one unpriced call makes the total null", () => {
    const meter = new UsageMeter();
    meter.record("claude-haiku-4-5", { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: null });
    meter.record("claude-haiku-4-5", undefined);
    expect(meter.total()).toEqual({ input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(meter.totalCostUsd()).toBeCloseTo((100 * 1 + 10 * 5) / 1e6, 12);
    meter.record("mystery", { input_tokens: 1, output_tokens: 1 });
    expect(meter.totalCostUsd()).toBeNull();
    expect(meter.last()?.model).toBe("mystery");
  });
});
