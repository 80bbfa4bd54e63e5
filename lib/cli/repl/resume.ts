/**
 * What a resumed interactive session shows first: the end of the saved conversation as it
 * looked (prompts after `> `, answers, one `● Tool(args)` line per call), so `-c` picks up where
 * the screen left off.
 */
import type { Conversation } from "../../agent/conversation.ts";
import type { Style } from "../ui/style.ts";
import { toolStartLine } from "../ui/tool-lines.ts";

/** Messages shown at most: older ones stay in the conversation, just not on screen. */
const SHOWN = 20;

/** The last messages of `conversation` as screen text, with a line saying what was resumed. */
export function resumedScreen(conversation: Conversation, style: Style, cwd: string): string {
  const entries = conversation.all.slice(-SHOWN);
  const lines: string[] = [];
  if (conversation.all.length > SHOWN) lines.push(style.dim(`… ${conversation.all.length - SHOWN} earlier messages`));
  for (const { message } of entries) {
    for (const block of message.content) {
      if (block.type === "text") {
        const text = (block as { text: string }).text;
        lines.push(message.role === "user" ? `> ${text.replace(/\n/g, "\n  ")}` : text);
      } else if (block.type === "tool_use") {
        const call = block as { name: string; input: unknown };
        lines.push(toolStartLine(call.name, call.input, cwd, style));
      }
    }
  }
  lines.push(style.dim(`Resumed session ${conversation.sessionId} (${conversation.turns} earlier ${conversation.turns === 1 ? "prompt" : "prompts"}).`));
  return lines.join("\n");
}
