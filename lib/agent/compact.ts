/**
 * Compaction: one model call summarises the conversation, and the history becomes that summary
 * followed by the most recent messages, cut only where no `tool_use` is parted from its
 * `tool_result` (Messages API, tool use). `/compact [instructions]` asks for it; automatic
 * compaction starts when the last reply's prompt (input plus cache reads and writes) passes
 * AUTO_COMPACT_PERCENT of the model's context window (`CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` changes
 * the share). A model not in the table, or a reply without `usage`, never compacts by itself.
 */
import type { Conversation } from "./conversation.ts";
import { isToolUse, replyText, type ApiToolDefinition, type ContentBlock, type MessageParam } from "./messages.ts";
import type { ModelClient } from "./model/model.ts";
import { contextWindow } from "./model/model-table.ts";
import { normalizeUsage, promptTokens } from "./model/usage.ts";

/** The default share of the context window, in %, past which the conversation is compacted. */
export const AUTO_COMPACT_PERCENT = 80;
/** The kept messages hold at most this many characters (about 10,000 tokens)… */
const KEEP_CHARS = 40_000;
/** …and at most this many user prompts. */
const KEEP_PROMPTS = 2;

const SUMMARY_REQUEST = `Write a summary of this conversation so far, so that work can continue from it alone: the user's requests and intent, what was done and found (files, commands, decisions, errors and their fixes), the current state, and what remains to do. Keep exact names, paths and values that will matter. Do not call any tools: answer with the summary only.`;

export interface CompactInfo {
  trigger: "manual" | "auto";
  /** Prompt tokens of the last reply before compacting, when known. */
  preTokens?: number;
  /** Messages summarised away, and kept as they were. */
  summarised: number;
  kept: number;
}

/** What the summary request reuses from the turn's request, so it reads the same cached prefix. */
export interface CompactRequest {
  model: ModelClient;
  system: string;
  tools: ApiToolDefinition[];
  signal?: AbortSignal;
}

const isPrompt = (m: MessageParam) => m.role === "user" && !m.content.some((b) => b.type === "tool_result");
const size = (m: MessageParam) => JSON.stringify(m.content).length;

/**
 * Where the kept messages start, never at a tool_result message: at a user prompt (whole turns
 * kept) when one fits, else at an assistant message (its tool_use and the next message's
 * tool_result are both kept; the earlier pairs both go), as in a long `-p` run that is one turn.
 * The earliest such point after 0 whose suffix fits KEEP_CHARS and KEEP_PROMPTS;
 * `messages.length` (keep nothing) when none does.
 */
export function keepFrom(messages: readonly MessageParam[]): number {
  let turn = messages.length;
  let step = messages.length;
  let chars = 0;
  let prompts = 0;
  for (let i = messages.length - 1; i >= 1; i--) {
    chars += size(messages[i]!);
    if (isPrompt(messages[i]!)) prompts++;
    if (chars > KEEP_CHARS || prompts > KEEP_PROMPTS) break;
    if (isPrompt(messages[i]!)) turn = i;
    else if (messages[i]!.role === "assistant") step = i;
  }
  return turn < messages.length ? turn : step;
}

/** The summary as the first user message, joined with `first` when that is a user prompt. */
export function summaryHead(summary: string, first: MessageParam | undefined): MessageParam[] {
  const block: ContentBlock = { type: "text", text: `This conversation was compacted. A summary of what came before:\n\n${summary.trim()}` };
  if (first && isPrompt(first)) return [{ role: "user", content: [block, ...first.content] }];
  return [{ role: "user", content: [block] }];
}

/** The whole history plus the request for a summary (added to a final user message, or as one). */
function summaryMessages(messages: readonly MessageParam[], instructions: string): MessageParam[] {
  const ask: ContentBlock = {
    type: "text",
    text: instructions.trim() ? `${SUMMARY_REQUEST}\n\nInstructions for the summary: ${instructions.trim()}` : SUMMARY_REQUEST,
  };
  const last = messages.at(-1);
  if (last?.role === "user") return [...messages.slice(0, -1), { ...last, content: [...last.content, ask] }];
  return [...messages, { role: "user", content: [ask] }];
}

/**
 * Summarises `conversation` with one model call and rewrites it as the summary plus its most
 * recent messages. Returns what happened, or undefined when there was nothing to compact.
 * @throws ModelError when the summary call fails (the conversation is then unchanged), Error when
 *   the reply holds no text.
 */
export async function compact(
  conversation: Conversation,
  req: CompactRequest,
  instructions: string,
  trigger: CompactInfo["trigger"],
): Promise<CompactInfo | undefined> {
  const messages = conversation.messages;
  if (!messages.length) return undefined;
  const preTokens = lastPromptTokens(conversation);
  const reply = await req.model.create({ system: req.system, tools: req.tools, messages: summaryMessages(messages, instructions) }, { signal: req.signal });
  const summary = replyText(reply.content.filter((b) => !isToolUse(b)));
  if (!summary.trim()) throw new Error("compaction failed: the model's summary was empty");
  const from = keepFrom(messages);
  const kept = messages.slice(from);
  const head = summaryHead(summary, kept[0]);
  conversation.rewrite(head, isPrompt(kept[0] ?? { role: "assistant", content: [] }) ? from + 1 : from);
  return { trigger, summarised: from, kept: messages.length - from, preTokens };
}

/** Prompt tokens of the newest reply that carried usage, or undefined. */
function lastPromptTokens(conversation: Conversation): number | undefined {
  for (let i = conversation.all.length - 1; i >= 0; i--) {
    const u = conversation.all[i]!.usage;
    if (u) return promptTokens(normalizeUsage(u));
  }
  return undefined;
}

/** The status line: `Compacted the conversation (auto, at 850000 tokens): 12 messages summarised, 4 kept.` */
export function describeCompaction(info: CompactInfo): string {
  const at = info.preTokens === undefined ? "" : `, at ${info.preTokens} tokens`;
  const messages = info.summarised === 1 ? "message" : "messages";
  return `Compacted the conversation (${info.trigger}${at}): ${info.summarised} ${messages} summarised, ${info.kept} kept.`;
}

/** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` read: a share in % (1-100), else the default. */
export function autoCompactPercent(value: string | undefined, warn: (line: string) => void): number {
  if (value === undefined || value.trim() === "") return AUTO_COMPACT_PERCENT;
  const n = Number(value);
  if (Number.isFinite(n) && n > 0 && n <= 100) return n;
  warn(`CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "${value}" is not a percentage from 1 to 100; using ${AUTO_COMPACT_PERCENT}`);
  return AUTO_COMPACT_PERCENT;
}

/**
 * Decides automatic compaction before each model call: the newest assistant message's usage
 * against `percent` of `model`'s window. Judges each reply once, so a compacted conversation
 * (whose kept messages still carry old usage) is not compacted again before a new reply.
 */
export class AutoCompactor {
  private judged: string | undefined;

  constructor(private readonly percent: number) {}

  /** The prompt tokens that passed the threshold, or undefined when no compaction is due. */
  due(conversation: Conversation, model: string): number | undefined {
    const window = contextWindow(model);
    if (window === undefined) return undefined;
    const entry = conversation.all.findLast((e) => e.message.role === "assistant");
    if (!entry?.usage || entry.id === this.judged) return undefined;
    this.judged = entry.id;
    const tokens = promptTokens(normalizeUsage(entry.usage));
    return tokens > (window * this.percent) / 100 ? tokens : undefined;
  }
}
