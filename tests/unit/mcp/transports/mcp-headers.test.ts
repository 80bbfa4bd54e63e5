/**
 * The request-metadata headers of MCP 2026-07-28 Streamable HTTP (SEP-2243): the spec's encoding
 * examples and the `x-mcp-header` declarations a client must refuse.
 */
import { describe, expect, test } from "bun:test";
import { encodeHeaderValue, nameOf, paramHeaders, paramHeaderValues } from "../../../../lib/mcp/transports/mcp-headers.ts";

describe("encodeHeaderValue (streamable-http §Value Encoding)", () => {
  for (const [value, sent] of [
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    ["us west 1", "us west 1"],
  ]) {
    test(JSON.stringify(value), () => expect(encodeHeaderValue(value!)).toBe(sent!));
  }
});

describe("paramHeaders (§Schema Extension)", () => {
  const schema = (properties: Record<string, unknown>) => ({ type: "object", properties });

  test("annotations reached through properties alone, nested ones included", () => {
    const rules = paramHeaders(
      schema({ region: { type: "string", "x-mcp-header": "Region" }, o: { type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" } } } }),
    );
    expect(rules).toEqual({
      headers: [
        { path: ["region"], name: "Region" },
        { path: ["o", "n"], name: "N" },
      ],
    });
  });

  for (const [why, properties] of [
    ["empty", { v: { type: "string", "x-mcp-header": "" } }],
    ["not a token (space)", { v: { type: "string", "x-mcp-header": "My Region" } }],
    ["not a token (colon)", { v: { type: "string", "x-mcp-header": "A:B" } }],
    ["non-ASCII", { v: { type: "string", "x-mcp-header": "Région" } }],
    ["a number", { v: { type: "number", "x-mcp-header": "Score" } }],
    ["an object", { v: { type: "object", "x-mcp-header": "Data" } }],
    ["a case-insensitive duplicate", { a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }],
    ["under items", { a: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }],
    ["under anyOf", { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } }],
  ] as const) {
    test(`refused: ${why}`, () => expect("invalid" in paramHeaders(schema(properties as Record<string, unknown>))).toBe(true));
  }

  test("values: string encoded, integer decimal, boolean lower-case, null and absent omitted", () => {
    const headers = [
      { path: ["s"], name: "S" },
      { path: ["i"], name: "I" },
      { path: ["b"], name: "B" },
      { path: ["n"], name: "N" },
      { path: ["gone"], name: "Gone" },
    ];
    expect(paramHeaderValues(headers, { s: " x", i: 42, b: false, n: null })).toEqual({
      "Mcp-Param-S": "=?base64?IHg=?=",
      "Mcp-Param-I": "42",
      "Mcp-Param-B": "false",
    });
  });

  test("Mcp-Name's source per method", () => {
    expect([
      nameOf("tools/call", { name: "t" }),
      nameOf("resources/read", { uri: "u" }),
      nameOf("tools/list", {}),
      nameOf("tasks/get", { taskId: "k" }),
    ]).toEqual(["t", "u", undefined, "k"]);
  });
});
