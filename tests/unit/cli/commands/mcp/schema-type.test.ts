/**
 * schemaType (lib/cli/commands/mcp/schema-type.ts): a JSON Schema in a few words.
 */
import { describe, expect, test } from "bun:test";
import { schemaType } from "../../../../../lib/cli/commands/mcp/schema-type.ts";

describe("schemaType", () => {
  test.each([
    [{ type: "string" }, "string"],
    [{ type: ["boolean", "string"] }, "boolean | string"],
    [{ type: "string", enum: ["a", "b"] }, '"a" | "b"'],
    [{ enum: [1, null] }, "1 | null"],
    [{ const: "fixed" }, '"fixed"'],
    [{ type: "array", items: { type: "string" } }, "string[]"],
    [{ type: "array" }, "any[]"],
    [{ type: "array", items: { anyOf: [{ type: "number" }, { type: "null" }] } }, "(number | null)[]"],
    [{ type: "array", items: { type: "array", items: { type: "integer" } } }, "integer[][]"],
    [{ anyOf: [{ type: "string" }, { type: "number" }, { type: "string" }] }, "string | number"],
    [{ oneOf: [{ $ref: "#/$defs/Address" }, { type: "null" }] }, "Address | null"],
    [{ $ref: "#/definitions/Point" }, "Point"],
    [{ anyOf: [{ type: "string" }, {}] }, "any"],
    [{ enum: ["a | b", "c"] }, '"a | b" | "c"'],
    [{}, "any"],
    [null, "any"],
    ["string", "any"],
  ])("%j → %s", (schema, expected) => {
    expect(schemaType(schema)).toBe(expected);
  });
});
