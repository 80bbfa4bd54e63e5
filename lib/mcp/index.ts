/**
 * The MCP client's public face: what the agent and the CLI import. Lower layers (framing,
 * jsonrpc, stdio) stay importable on their own for tests and tools.
 */
export { CLIENT_INFO, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, initializeRequest } from "./protocol.ts";
export type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  ListKind,
  McpPrompt,
  McpResource,
  McpTool,
  ReadResourceResult,
  RequestId,
  ServerCapabilities,
} from "./protocol.ts";
export { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, McpRegistry } from "./registry.ts";
export type { RegistryOptions, ServerState } from "./registry.ts";
export type { ToolRoute } from "./tools.ts";
export { McpClient } from "./client.ts";
export type { McpClientOptions, SessionInfo } from "./client.ts";
export { ConnectionClosedError, McpError, RequestCancelledError, RequestTimeoutError } from "./errors.ts";
