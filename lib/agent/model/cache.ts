/**
 * Prompt-caching breakpoints (Messages API prompt caching, `cache_control`). A breakpoint caches
 * the whole prefix before it: tools, then system, then messages. Marking the last block of the
 * newest message and of the one before it lets request N+1 read request N's prefix from the
 * cache (its newest message is N+1's second newest), while the newest one writes the next entry.
 * Two breakpoints stay within the API's limit of four per request.
 */
import type { ContentBlock, MessageParam, SystemMessageParam } from "../messages.ts";

type AnyMessage = MessageParam | SystemMessageParam;

export const EPHEMERAL = { type: "ephemeral" } as const;

/** Blocks the API accepts `cache_control` on; thinking blocks (and unknown ones) are not marked. */
const CACHEABLE = new Set(["text", "image", "document", "tool_use", "tool_result"]);

/**
 * A copy of `messages` with `cache_control: {type: "ephemeral"}` on the last cacheable block of
 * the last two messages; a string content becomes one text block carrying it. The input (the
 * conversation's history) is never modified, so no breakpoint is ever stored or sent twice.
 */
export function withBreakpoints<M extends AnyMessage>(messages: readonly M[]): M[] {
  const out = messages.slice();
  for (let i = Math.max(0, out.length - 2); i < out.length; i++) out[i] = mark(out[i]!);
  return out;
}

function mark<M extends AnyMessage>(message: M): M {
  const content: ContentBlock[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content.slice();
  for (let j = content.length - 1; j >= 0; j--) {
    if (CACHEABLE.has(content[j]!.type)) {
      content[j] = { ...content[j]!, cache_control: EPHEMERAL };
      return { ...message, content };
    }
  }
  return message;
}
