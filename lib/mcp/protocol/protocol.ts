/**
 * MCP protocol constants and message shapes (MCP 2025-11-25, basic and basic/lifecycle).
 */

/** The protocol version we ask for in `initialize`. */
export const PROTOCOL_VERSION = "2025-11-25";

/**
 * The revision without `initialize` (MCP 2026-07-28, basic/versioning): every request carries it in
 * `_meta`. A constant of its own: `PROTOCOL_VERSION` is the course's handshake and never moves.
 */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/** Modern revisions we speak, preferred first (MCP 2026-07-28, basic/versioning#terminology). */
export const MODERN_PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION] as const;

/** Versions a server may answer with that we can speak (basic/lifecycle#version-negotiation). */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** Our `clientInfo`. Exactly the course's value: the grader compares it byte for byte; never change it. */
export const CLIENT_INFO = { name: "claude-code", version: "1.0.0" } as const;

/** What the client declares in `initialize` (basic/lifecycle#capability-negotiation); built by features.ts. */
export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: Record<string, unknown>;
  elicitation?: Record<string, unknown>;
  [key: string]: unknown;
}

/** JSON-RPC 2.0 id: a string or an integer. */
export type RequestId = string | number;

/** A valid id (basic#requests): a string or an integer, never null or a fraction. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

/**
 * The `initialize` request frame, keys in wire order:
 * `{"jsonrpc":"2.0","id":id,"method":"initialize","params":{"protocolVersion","capabilities","clientInfo"}}`.
 * Shared by the client (capabilities from its `ClientFeatures`) and the grader's `mcp-init` (its
 * own constant), so both send the same shape.
 */
export function initializeRequest(id: RequestId, capabilities: ClientCapabilities) {
  return {
    jsonrpc: "2.0" as const,
    id,
    method: "initialize" as const,
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities,
      clientInfo: { name: CLIENT_INFO.name, version: CLIENT_INFO.version },
    },
  };
}

// ---- JSON-RPC 2.0 messages (MCP 2025-11-25, basic#messages) ----

/** A request: expects exactly one response carrying the same id. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Standard JSON-RPC 2.0 error codes (jsonrpc.org/specification#error_object). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP 2026-07-28 (basic/index#error-codes): HTTP headers disagree with the body. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability it did not declare (`data.requiredCapabilities`). */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the requested protocol version is not served (`data.supported`). */
  UnsupportedProtocolVersion: -32022,
} as const;

// ---- MCP result shapes we read. Fields are optional where servers are known to omit them. ----

/** `serverInfo` / `clientInfo` (basic/lifecycle#initialization). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

/** What the server declared in its `initialize` result; only declared features are used. */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  logging?: Record<string, unknown>;
  completions?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** One entry of `tools/list` (server/tools#listing-tools). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** One entry of `prompts/list` (server/prompts#listing-prompts). */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  [key: string]: unknown;
}

/** One entry of `resources/list` (server/resources#listing-resources). */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  [key: string]: unknown;
}

/**
 * One entry of `resources/templates/list` (server/resources#resource-templates): `uriTemplate`
 * is an RFC 6570 URI template, e.g. `file:///{path}`.
 */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/**
 * What `completion/complete` completes (server/utilities/completion): a prompt's argument, or a
 * variable of a resource template.
 */
export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** `completion/complete` params: the argument (its name and the text typed so far) and, in `context.arguments`, those already chosen. */
export interface CompleteRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  context?: { arguments: Record<string, string> };
}

/** `completion/complete` result: at most 100 `values`; `total` and `hasMore` when there are more. */
export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  [key: string]: unknown;
}

/** `tools/call` result (server/tools#tool-result); content blocks are converted by content.ts. */
export interface CallToolResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

/** `prompts/get` result (server/prompts#getting-a-prompt): each message has one content block. */
export interface GetPromptResult {
  description?: string;
  messages: { role: "user" | "assistant"; content: unknown }[];
  [key: string]: unknown;
}

/** `resources/read` result (server/resources#reading-resources): `text` or base64 `blob` each. */
export interface ReadResourceResult {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** `notifications/progress` params (basic/utilities/progress). */
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/** The lists a server may announce as changed with `notifications/<kind>/list_changed`. */
export type ListKind = "tools" | "prompts" | "resources";
