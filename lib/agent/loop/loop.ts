/**
 * The tool-use loop (Anthropic Messages API, tool use): call the model, run every `tool_use` of
 * the reply, send all `tool_result` blocks back in one user message, repeat until `stop_reason`
 * is not `tool_use`. The loop knows tools only through the `Tool` interface.
 */
import { isToolUse, replyText, type MessageParam, type SystemMessageParam, type ToolUseBlock } from "../messages.ts";
import { toApi } from "../tool-search/tool-search.ts";
import type { Conversation } from "../conversation.ts";
import type { LoopHooks, LoopOptions, LoopResult } from "./loop-options.ts";
import { runToolCalls } from "./reply-calls.ts";

/** Thrown when `--max-turns` model calls were made and the model still wanted tools. */
export class MaxTurnsError extends Error {
  constructor(readonly turns: number) {
    super(`reached --max-turns ${turns} before the model finished`);
  }
}

/**
 * Runs the loop on `conversation`, appending every reply (with its usage) and tool_result
 * message to it as they happen, so the conversation and its transcript are always current.
 * @throws MaxTurnsError, ModelError, or the abort reason when `signal` fires between steps.
 */
export async function runLoop(conversation: Conversation, opts: LoopOptions): Promise<LoopResult> {
  const signal = opts.signal ?? new AbortController().signal;
  const bugs = { count: 0 };
  const onToolBug = opts.hooks?.onToolBug;
  const hooks: LoopHooks = {
    ...opts.hooks,
    onToolBug: (call, error) => {
      bugs.count++;
      onToolBug?.(call, error);
    },
  };
  const run = { ...opts, hooks };
  for (let turn = 1; ; turn++) {
    if (signal.aborted) throw signal.reason ?? new Error("interrupted");
    if (opts.maxTurns !== undefined && turn > opts.maxTurns) throw new MaxTurnsError(opts.maxTurns);
    await opts.beforeModelCall?.();
    const current = opts.tools();
    const { definitions, routable: tools } = opts.offer?.(current) ?? { definitions: current.map(toApi), routable: current };
    const compacted = await opts.compact?.(conversation, { system: opts.system, tools: definitions, signal });
    if (compacted) opts.hooks?.onCompact?.(compacted);
    const reply = await opts.model.create(
      {
        system: opts.system,
        messages: withContext(conversation.messages, opts.context?.()),
        tools: definitions,
      },
      { onText: opts.hooks?.onText, onEvent: opts.hooks?.onStreamEvent, signal },
    );
    // Empty text blocks are rejected by the API when sent back; drop them from the history.
    const content = reply.content.filter((b) => b.type !== "text" || (b as { text: string }).text.trim() !== "");
    const cleaned = { ...reply, content };
    opts.hooks?.onAssistant?.(cleaned);
    const calls = content.filter(isToolUse);
    if (reply.stop_reason !== "tool_use" && !(reply.stop_reason === "max_tokens" && calls.length)) {
      if (content.length) conversation.append({ role: "assistant", content }, { usage: reply.usage, model: reply.model });
      return { text: replyText(content), toolBugs: bugs.count };
    }
    conversation.append({ role: "assistant", content }, { usage: reply.usage, model: reply.model });
    // A reply cut off by max_tokens may end in a tool_use whose input is partial: never run that one.
    const truncated = reply.stop_reason === "max_tokens" && isToolUse(content.at(-1)!) ? (content.at(-1) as ToolUseBlock) : undefined;
    const { results, followUp } = await runToolCalls(calls, tools, run, signal, truncated);
    const message: MessageParam = { role: "user", content: [...results, ...followUp] };
    conversation.append(message);
    opts.hooks?.onToolResults?.(message);
    if (opts.halted?.()) return { text: "", toolBugs: bugs.count };
  }
}

/** `messages` with `context` after the first one. */
function withContext(messages: MessageParam[], context: SystemMessageParam | undefined): (MessageParam | SystemMessageParam)[] {
  return context && messages.length ? [messages[0]!, context, ...messages.slice(1)] : messages;
}
