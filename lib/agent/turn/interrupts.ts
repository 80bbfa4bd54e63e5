/**
 * The conversation's shape across interrupted turns, as Claude Code keeps it: what the model had
 * streamed before the interrupt stays as an assistant message, a `[Request interrupted by user]`
 * text follows as user content, and the next input joins that user message, so requests always
 * alternate user / assistant (Messages API: consecutive same-role turns are merged or refused).
 */
import type { Conversation } from "../conversation.ts";
import type { MessageParam } from "../messages.ts";

export const INTERRUPT_MARKER = "[Request interrupted by user]";

/** What this needs of the conversation (lib/agent/conversation.ts). */
export type Turns = Pick<Conversation, "messages" | "mark" | "rollback" | "append" | "closeInterrupted">;

/**
 * Records an interrupt at the end of `conversation`: unanswered tool calls are closed, `partial`
 * (text streamed by the call that was cut off, maybe "") is kept as an assistant message when
 * the conversation ends with a user message, then the marker, joined to the last user message
 * when that is where the conversation ends.
 */
export function recordInterrupt(conversation: Turns, partial: string): void {
  conversation.closeInterrupted();
  const last = conversation.messages.at(-1);
  if (!last) return;
  const text = partial.trimEnd();
  if (last.role === "user" && text) conversation.append({ role: "assistant", content: [{ type: "text", text }] });
  const end = conversation.messages.at(-1)!;
  const marker = { type: "text", text: INTERRUPT_MARKER };
  if (end.role === "user") replaceLast(conversation, { role: "user", content: [...end.content, marker] });
  else conversation.append({ role: "user", content: [marker] });
}

/**
 * Adds the user's input: a new user message, or joined to a user message left by an interrupt.
 * Returns the mark before the input (rolling back to it drops the input, and a joined marker).
 */
export function addUserInput(conversation: Turns, content: MessageParam["content"]): number {
  const last = conversation.messages.at(-1);
  if (last?.role !== "user") {
    const mark = conversation.mark();
    conversation.append({ role: "user", content });
    return mark;
  }
  replaceLast(conversation, { role: "user", content: [...last.content, ...content] });
  return conversation.mark() - 1;
}

/** The conversation is append-only with rollback: replacing its last message is both. */
function replaceLast(conversation: Turns, message: MessageParam): void {
  conversation.rollback(conversation.mark() - 1);
  conversation.append(message);
}
