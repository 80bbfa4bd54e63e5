/**
 * Consent before a server's `sampling/createMessage` spends the user's tokens (MCP 2025-11-25
 * client/sampling: a human in the loop can approve or deny each request). Shows the server, the
 * request's first lines and `maxTokens`; `[y]es / [n]o / [a]lways for this server`.
 */
import type { CreateMessageParams, SamplingConsent } from "../../agent/mcp/sampling.ts";
import { parseAnswer } from "./permission.ts";
import { oneLine } from "../ui/tool-lines.ts";
import type { Style } from "../ui/style.ts";

/** Lines of the request shown before the question. */
export const SAMPLING_PREVIEW_LINES = 6;

/** `ask` shows body lines and a question, resolving with the typed answer, or null when interrupted. */
export function samplingConsent(ask: (question: string, body: string[]) => Promise<string | null>, style: Style): SamplingConsent {
  const always = new Set<string>();
  // One question at a time per server, each checking `always` only once the one before it is
  // answered: a burst of concurrent requests must not ask again after [a]lways.
  const queues = new Map<string, Promise<unknown>>();
  const consent: SamplingConsent = (server, params) => {
    const turn = (queues.get(server) ?? Promise.resolve()).then(() => decide(server, params));
    queues.set(
      server,
      turn.catch(() => undefined),
    );
    return turn;
  };
  const decide: SamplingConsent = async (server, params) => {
    if (always.has(server)) return true;
    let body = samplingPreview(server, params, style);
    for (;;) {
      const line = await ask(`Allow "${server}" to use the model? [y]es / [n]o / [a]lways for this server `, body);
      body = [];
      if (line === null) return false;
      const parsed = parseAnswer(line);
      if (!parsed) continue;
      if (parsed.answer === "always") always.add(server);
      return parsed.answer !== "no";
    }
  };
  return consent;
}

/** The lines shown for one request: who asks, for how many tokens, and what it would send. */
export function samplingPreview(server: string, params: CreateMessageParams, style: Style): string[] {
  const lines: string[] = [];
  if (params.systemPrompt) lines.push(`system: ${params.systemPrompt}`);
  for (const m of params.messages ?? []) {
    const blocks = Array.isArray(m?.content) ? m.content : [m?.content];
    for (const b of blocks) {
      const text =
        b && typeof b === "object" && (b as { type?: unknown }).type === "text"
          ? String((b as { text?: unknown }).text ?? "")
          : `[${(b as { type?: string })?.type ?? "content"}]`;
      for (const l of text.split("\n")) lines.push(`${m?.role === "assistant" ? "assistant" : "user"}: ${l}`);
    }
  }
  const shown = lines.slice(0, SAMPLING_PREVIEW_LINES).map((l) => `  ${oneLine(l, 100)}`);
  if (lines.length > shown.length) shown.push(style.dim(`  … +${lines.length - shown.length} lines`));
  return [`MCP server "${server}" asks for a completion from the model (sampling/createMessage, up to ${params.maxTokens ?? 1024} tokens):`, ...shown];
}
