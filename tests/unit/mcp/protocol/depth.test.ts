/** nestedDeeperThan (lib/mcp/protocol/depth.ts): measures without recursion, so no nesting overflows it. */
import { describe, expect, test } from "bun:test";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../../../lib/mcp/protocol/depth.ts";

const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);

describe("nestedDeeperThan", () => {
  test("counts objects and arrays; scalars are no level", () => {
    expect(nestedDeeperThan(1, 0)).toBe(false);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({ a: [{}] }, 2)).toBe(true);
    expect(nestedDeeperThan({ a: [{}] }, 3)).toBe(false);
  });

  test("at the limit passes, one past it does not; 100 000 levels are measured without overflow", () => {
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestedDeeperThan(nested(100_000))).toBe(true);
  });

  test("a wide, shallow value is not deep", () => {
    expect(nestedDeeperThan({ tools: Array.from({ length: 10_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } })) })).toBe(false);
  });
});
