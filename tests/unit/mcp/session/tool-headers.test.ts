/**
 * Tools with invalid `x-mcp-header` declarations are left out over HTTP with one line naming each
 * and why (MCP 2026-07-28, basic/transports/streamable-http §Schema Extension); the others'
 * annotations reach the transport.
 */
import { expect, test } from "bun:test";
import { withHeaderRules } from "../../../../lib/mcp/session/tool-headers.ts";
import type { Transport } from "../../../../lib/mcp/transports/transport.ts";

test("invalid tools are left out with one line; valid annotations go to the transport", () => {
  let given: Map<string, unknown> | undefined;
  const transport = { setToolHeaders: (h: Map<string, unknown>) => (given = h) } as unknown as Transport;
  const warned: string[] = [];
  const tools = [
    { name: "ok", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } },
    { name: "plain", inputSchema: { type: "object", properties: {} } },
    { name: "bad", inputSchema: { type: "object", properties: { v: { type: "number", "x-mcp-header": "V" } } } },
    { name: "worse", inputSchema: { type: "object", properties: { v: { type: "string", "x-mcp-header": "" } } } },
  ];
  expect(withHeaderRules(tools, transport, (l) => warned.push(l)).map((t) => t.name)).toEqual(["ok", "plain"]);
  expect(warned).toHaveLength(1);
  expect(warned[0]).toMatch(/^tools left out for invalid x-mcp-header declarations: bad \(.*"number".*\); worse \(.*empty\)$/);
  expect([...given!.keys()]).toEqual(["ok"]);
});
