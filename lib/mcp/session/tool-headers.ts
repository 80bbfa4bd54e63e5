/**
 * `x-mcp-header` over Streamable HTTP in MCP 2026-07-28 (basic/transports/streamable-http §Schema
 * Extension; SEP-2243): a tool with an invalid annotation MUST be left out of the tool list (one
 * line names each and why); the others' annotations go to the transport for `Mcp-Param-*` headers.
 */
import type { McpTool } from "../protocol/protocol.ts";
import type { Transport } from "../transports/transport.ts";
import { type ParamHeader, paramHeaders } from "../transports/mcp-headers.ts";

/** `tools` without those whose header declarations are invalid; `warn` hears one line naming them. */
export function withHeaderRules(tools: McpTool[], transport: Transport, warn: (line: string) => void): McpTool[] {
  const kept: McpTool[] = [];
  const left: string[] = [];
  const headers = new Map<string, readonly ParamHeader[]>();
  for (const tool of tools) {
    const rules = paramHeaders(tool.inputSchema);
    if ("invalid" in rules) {
      left.push(`${tool.name} (${rules.invalid})`);
      continue;
    }
    if (rules.headers.length) headers.set(tool.name, rules.headers);
    kept.push(tool);
  }
  if (left.length) warn(`tools left out for invalid x-mcp-header declarations: ${left.join("; ")}`);
  transport.setToolHeaders?.(headers);
  return kept;
}
