/**
 * What a resumed interactive session shows first: the end of the saved conversation replayed
 * through the live view (ui/turn-view.ts): prompts after `> `, answers rendered as Markdown, one
 * `● Tool(args)` line per call (`● server › tool (MCP)` for an MCP tool, by the routes the
 * transcript saved) and its result preview, so `-c` picks up where the screen left off.
 */
import type { Conversation } from "../../agent/conversation.ts";
import type { ToolResultContentBlock, ToolUseBlock } from "../../agent/messages.ts";
import { INTERRUPT_MARKER } from "../../agent/turn/interrupts.ts";
import { TurnStatus } from "../ui/turn-status.ts";
import { MarkdownStream } from "../ui/markdown.ts";
import type { Style } from "../ui/style.ts";
import { mcpCallName, toolStartLine } from "../ui/tool-lines.ts";
import { TurnView } from "../ui/turn-view.ts";

/** The text blocks hooks add to a user message (policy/turn-hooks.ts, Claude Code's words). */
const HOOK_CONTEXT = /^(?:SessionStart(?::\w+)? hook success: |UserPromptSubmit hook success: |Stop hook feedback:\n)/;

/** Messages shown at most: older ones stay in the conversation, just not on screen. */
const SHOWN = 20;

/** The last messages of `conversation` as screen text, `columns` wide, with a line saying what was resumed. */
export function resumedScreen(conversation: Conversation, style: Style, cwd: string, columns = 80): string {
  const entries = conversation.all.slice(-SHOWN);
  const lines: string[] = [];
  const print = (text: string) => lines.push(text.replace(/\n$/, ""));
  if (conversation.all.length > SHOWN) print(style.dim(`… ${conversation.all.length - SHOWN} earlier messages`));
  const route = (name: string) => conversation.routes[name];
  // A status that is never started draws nothing: a replay has no spinner.
  const view = new TurnView(
    { print, setActivity: () => {}, setPending: () => {}, columns },
    style,
    cwd,
    new MarkdownStream(() => columns, style),
    new TurnStatus(() => {}, style),
    (call) => toolStartLine(call.name, call.input, cwd, style, route(call.name)),
    (call) => mcpCallName(call.name, route(call.name)),
  );
  const calls = new Map<string, ToolUseBlock>();
  for (const { message } of entries) {
    for (const block of message.content) {
      if (block.type === "text") {
        const text = (block as { text: string }).text;
        if (message.role === "assistant") view.text(text);
        // A mention's attachment was never on screen: the prompt line shows the mention.
        else if (text.startsWith("<attachment source=")) continue;
        // A hook's words for the model were never typed: shown dim, as what they are, not after `> `.
        else if (HOOK_CONTEXT.test(text)) view.line(style.dim(text.replace(/\n/g, "\n  ")));
        else view.line(text === INTERRUPT_MARKER ? style.yellow("Interrupted.") : `> ${text.replace(/\n/g, "\n  ")}`);
      } else if (block.type === "tool_use") {
        const call = block as ToolUseBlock;
        calls.set(call.id, call);
        view.toolStart(call);
      } else if (block.type === "tool_result") {
        const result = block as ToolResultContentBlock;
        const call = calls.get(result.tool_use_id);
        if (call) view.toolEnd(call, result);
      }
    }
    view.endLine();
  }
  print(style.dim(`Resumed session ${conversation.sessionId} (${conversation.turns} earlier ${conversation.turns === 1 ? "prompt" : "prompts"}).`));
  return lines.join("\n");
}
