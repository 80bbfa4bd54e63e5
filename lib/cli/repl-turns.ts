/**
 * The conversation's shape across interrupted turns, as Claude Code keeps it: what the model had
 * streamed before the interrupt stays as an assistant message, a `[Request interrupted by user]`
 * text follows as user content, and the next input joins that user message, so requests always
 * alternate user / assistant (Messages API: consecutive same-role turns are merged or refused).
 */
import type { MessageParam } from "../agent/messages.ts";

export const INTERRUPT_MARKER = "[Request interrupted by user]";

/**
 * Records an interrupt at the end of `messages`: `partial` (text streamed by the call that was
 * cut off, maybe "") as an assistant message when the conversation ends with a user message,
 * then the marker, joined to the last user message when that is where the conversation ends.
 */
export function recordInterrupt(messages: MessageParam[], partial: string): void {
  const last = messages.at(-1);
  if (!last) return;
  const text = partial.trimEnd();
  if (last.role === "user" && text) messages.push({ role: "assistant", content: [{ type: "text", text }] });
  const end = messages.at(-1)!;
  if (end.role === "user") end.content = [...end.content, { type: "text", text: INTERRUPT_MARKER }];
  else messages.push({ role: "user", content: [{ type: "text", text: INTERRUPT_MARKER }] });
}

/** Adds the user's input: a new user message, or joined to a user message left by an interrupt. */
export function addUserInput(messages: MessageParam[], content: MessageParam["content"]): void {
  const last = messages.at(-1);
  if (last?.role === "user") last.content = [...last.content, ...content];
  else messages.push({ role: "user", content });
}
