/**
 * Serves MCP `sampling/createMessage` (MCP 2025-11-25 client/sampling) with the agent's model:
 * the server's `messages`, `systemPrompt` and `maxTokens` go to the Messages API, and the reply
 * goes back as `{role, content, model, stopReason}`.
 */
import type { ContentBlock, MessageParam } from "./messages.ts";
import { replyText } from "./messages.ts";
import type { ModelClient } from "./model.ts";

interface SamplingContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
}

export interface CreateMessageParams {
  messages: { role: "user" | "assistant"; content: SamplingContent | SamplingContent[] }[];
  systemPrompt?: string;
  maxTokens?: number;
}

const STOP_REASONS: Record<string, string> = { end_turn: "endTurn", max_tokens: "maxTokens", stop_sequence: "stopSequence" };

function toBlock(c: SamplingContent): ContentBlock {
  if (c.type === "image" && c.data && c.mimeType) return { type: "image", source: { type: "base64", media_type: c.mimeType, data: c.data } };
  if (c.type === "text") return { type: "text", text: c.text ?? "" };
  return { type: "text", text: `[${c.type} content]` };
}

/**
 * A handler for the registry: one note on stderr per request, since a server is spending the user's
 * tokens. @throws ModelError when the model call fails (the server then gets a JSON-RPC error).
 */
export function samplingHandler(model: ModelClient, log: (line: string) => void) {
  return async (params: unknown, server: string, signal?: AbortSignal) => {
    const p = params as CreateMessageParams;
    log(`MCP server "${server}" asked the model for a completion (sampling/createMessage, up to ${p.maxTokens ?? 1024} tokens)`);
    const messages: MessageParam[] = (p.messages ?? []).map((m) => ({
      role: m.role === "assistant" ? "assistant" : "user",
      content: (Array.isArray(m.content) ? m.content : [m.content]).map(toBlock),
    }));
    // The server may cancel its request (notifications/cancelled): the model call stops with it.
    const reply = await model.create({ system: p.systemPrompt ?? "", messages, tools: [], maxTokens: p.maxTokens ?? 1024 }, { signal });
    return {
      role: "assistant",
      content: { type: "text", text: replyText(reply.content) },
      model: reply.model,
      stopReason: STOP_REASONS[reply.stop_reason ?? ""] ?? reply.stop_reason ?? "endTurn",
    };
  };
}
