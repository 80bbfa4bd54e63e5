/**
 * MCP protocol constants and message shapes (MCP 2025-11-25, basic and basic/lifecycle).
 */

/** The protocol version we ask for in `initialize`. */
export const PROTOCOL_VERSION = "2025-11-25";

/** Versions a server may answer with that we can speak (basic/lifecycle#version-negotiation). */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

export const CLIENT_INFO = { name: "claude-code", version: "1.0.0" } as const;

/** JSON-RPC 2.0 id: a string or an integer. */
export type RequestId = string | number;

/**
 * The `initialize` request frame, keys in wire order:
 * `{"jsonrpc":"2.0","id":id,"method":"initialize","params":{"protocolVersion","capabilities":{"roots":{},"sampling":{}},"clientInfo"}}`.
 * Shared by the client and the grader's `mcp-init`, so both send the same bytes.
 */
export function initializeRequest(id: RequestId) {
  return {
    jsonrpc: "2.0" as const,
    id,
    method: "initialize" as const,
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { roots: {}, sampling: {} },
      clientInfo: { name: CLIENT_INFO.name, version: CLIENT_INFO.version },
    },
  };
}
