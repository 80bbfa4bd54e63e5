/**
 * The Messages API shapes the agent uses (Anthropic Messages API, content blocks).
 * Kept local and structural so that only model.ts depends on the SDK.
 */
import type { ToolResultBlock } from "../tools/tool.ts";

export type TextBlock = { type: "text"; text: string };
export type ImageBlock = Extract<ToolResultBlock, { type: "image" }>;
export type ToolUseBlock = { type: "tool_use"; id: string; name: string; input: unknown };
export type ToolResultContentBlock = {
  type: "tool_result";
  tool_use_id: string;
  content: string | ToolResultBlock[];
  is_error?: boolean;
};
/** Blocks we send or keep; other block types a reply may hold (thinking…) pass through untouched. */
export type ContentBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultContentBlock | { type: string; [k: string]: unknown };

export interface MessageParam {
  role: "user" | "assistant";
  content: ContentBlock[];
}

/**
 * A system-role entry among the messages (Messages API `SystemMessageParam`): context the
 * harness adds, as Claude Code sends its skills listing. Never kept in the conversation.
 */
export interface SystemMessageParam {
  role: "system";
  content: TextBlock[];
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** A model reply (Messages API `Message`), reduced to what the loop reads. */
export interface AssistantReply {
  id: string;
  model: string;
  content: ContentBlock[];
  stop_reason: string | null;
  usage: Usage;
}

export interface ApiTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/**
 * A tool definition as a request carries it: a client tool (with `defer_loading` only under the
 * opt-in server-side tool search), or a server tool named by its `type`.
 */
export type ApiToolDefinition = (ApiTool & { defer_loading?: boolean }) | { type: string; name: string };

export interface ModelRequest {
  system: string;
  messages: (MessageParam | SystemMessageParam)[];
  tools: ApiToolDefinition[];
  maxTokens?: number;
}

export const isText = (b: ContentBlock): b is TextBlock => b.type === "text";
export const isToolUse = (b: ContentBlock): b is ToolUseBlock => b.type === "tool_use";

/** The text of a reply's text blocks, joined. */
export function replyText(content: ContentBlock[]): string {
  return content
    .filter(isText)
    .map((b) => b.text)
    .join("");
}
