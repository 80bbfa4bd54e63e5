/**
 * Serves MCP `sampling/createMessage` (MCP 2025-11-25 client/sampling) with the agent's model:
 * the server's `messages`, `systemPrompt` and `maxTokens` go to the Messages API, and the reply
 * goes back as `{role, content, model, stopReason}`. What a server may spend is capped by
 * sampling-budget.ts.
 */
import { mcpContentToBlock, nonEmpty } from "./content.ts";
import type { MessageParam } from "../messages.ts";
import { replyText } from "../messages.ts";
import type { ModelClient } from "../model/model.ts";
import { McpError } from "../../mcp/protocol/errors.ts";
import type { SamplingBudget } from "./sampling-budget.ts";

/** The parts of sampling/createMessage params we use; the rest is ignored. Comes from a server: unchecked. */
export interface CreateMessageParams {
  messages?: { role?: string; content?: unknown }[];
  systemPrompt?: string;
  maxTokens?: number;
}

const STOP_REASONS: Record<string, string> = { end_turn: "endTurn", max_tokens: "maxTokens", stop_sequence: "stopSequence" };

/**
 * A server's sampling `messages` → Messages API messages. Content (one block or an array) goes
 * through the same conversion as tool results: images are checked against the API's limits and
 * described when it could not take them, audio is described, empty text is dropped, and so is a
 * message left with nothing. Never throws; may return [].
 */
export function samplingMessages(params: CreateMessageParams): MessageParam[] {
  const messages = Array.isArray(params?.messages) ? params.messages : [];
  return messages
    .map((m): MessageParam => {
      const content = Array.isArray(m?.content) ? m.content : [m?.content];
      return { role: m?.role === "assistant" ? "assistant" : "user", content: nonEmpty(content.map(mcpContentToBlock)) };
    })
    .filter((m) => m.content.length > 0);
}

/** The JSON-RPC error for a request the user refused (MCP 2025-11-25 client/sampling, error handling). */
export const USER_REJECTED = -1;

/**
 * Asks the user about one sampling request (the interactive session): true sends it to the model.
 * Absent, every request is served with a note (print mode).
 */
export type SamplingConsent = (server: string, params: CreateMessageParams, signal?: AbortSignal) => Promise<boolean>;

/**
 * A handler for the registry: a server is spending the user's tokens, so each request is either
 * put to the user (`consent`) or noted on stderr. @throws ModelError when the model call fails,
 * Error when the request has no content to send, McpError -1 when the user refused it (either way
 * the server gets a JSON-RPC error).
 */
export function samplingHandler(model: () => ModelClient, log: (line: string) => void, consent?: SamplingConsent, budget?: SamplingBudget) {
  return async (params: unknown, { server, signal }: { server: string; signal?: AbortSignal }) => {
    const p = (params ?? {}) as CreateMessageParams;
    const messages = samplingMessages(p);
    if (messages.length === 0) throw new Error("sampling/createMessage has no content to send to the model");
    // The budget holds whatever the user answers: past it nobody is asked.
    await budget?.take(server, signal);
    const maxTokens = budget ? budget.maxTokens(p.maxTokens) : (p.maxTokens ?? 1024);
    if (!consent) log(`MCP server "${server}" asked the model for a completion (sampling/createMessage, up to ${maxTokens} tokens)`);
    else if (!(await consent(server, { ...p, maxTokens }, signal))) throw new McpError(USER_REJECTED, "User rejected sampling request");
    // The server may cancel its request (notifications/cancelled): the model call stops with it.
    const reply = await model().create({ system: p.systemPrompt ?? "", messages, tools: [], maxTokens }, { signal });
    return {
      role: "assistant",
      content: { type: "text", text: replyText(reply.content) },
      model: reply.model,
      stopReason: STOP_REASONS[reply.stop_reason ?? ""] ?? reply.stop_reason ?? "endTurn",
    };
  };
}
