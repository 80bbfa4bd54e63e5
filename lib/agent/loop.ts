/**
 * The tool-use loop (Anthropic Messages API, tool use): call the model, run every `tool_use` of
 * the reply, send all `tool_result` blocks back in one user message, repeat until `stop_reason`
 * is not `tool_use`. The loop knows tools only through the `Tool` interface.
 */
import type { ToolState } from "../tools/tool-state.ts";
import type { FileChangeHook, SearchExclusions, Tool, ToolContext, ToolOutput } from "../tools/tool.ts";
import { ToolError } from "../tools/tool-error.ts";
import {
  isToolUse,
  replyText,
  type ApiToolDefinition,
  type AssistantReply,
  type MessageParam,
  type SystemMessageParam,
  type TextBlock,
  type ToolResultContentBlock,
  type ToolUseBlock,
} from "./messages.ts";
import type { ModelClient } from "./model.ts";
import { toApi, type ToolOffer } from "./tool-search/tool-search.ts";
import type { Conversation } from "./conversation.ts";
import { errorMessage } from "../shared/values.ts";
import type { CompactInfo } from "./compact.ts";
import type { SubagentEvent } from "./subagent-event.ts";

/** Thrown when `--max-turns` model calls were made and the model still wanted tools. */
export class MaxTurnsError extends Error {
  constructor(readonly turns: number) {
    super(`reached --max-turns ${turns} before the model finished`);
  }
}

export interface LoopHooks {
  /** A reply arrived (after empty text blocks were dropped). */
  onAssistant?(reply: AssistantReply): void;
  /** The tool_result message about to go back to the model. */
  onToolResults?(message: MessageParam): void;
  /** A tool call is starting / has finished (interactive display). */
  onToolStart?(call: ToolUseBlock): void;
  onToolEnd?(call: ToolUseBlock, result: ToolResultContentBlock): void;
  /** A running tool reported progress (MCP `notifications/progress`); set only when it can be shown. */
  onToolProgress?(call: ToolUseBlock, message: string, kind?: "task"): void;
  /** The conversation was compacted before a model call. */
  onCompact?(info: CompactInfo): void;
  /** Streamed text; when set, model calls stream. */
  onText?(delta: string): void;
  /** Raw stream events of each model call (stream-json's --include-partial-messages); when set, model calls stream. */
  onStreamEvent?(event: { type: string }): void;
  /**
   * A tool threw something other than a ToolError (a TypeError in our own code): a bug. The model
   * still gets an is_error result; this is for --debug's stack and the run's count.
   */
  onToolBug?(call: ToolUseBlock, error: unknown): void;
  /** A subagent started by this loop (or one of its own subagents) started, spoke or finished. */
  onSubagent?(event: SubagentEvent): void;
}

export interface LoopOptions {
  model: ModelClient;
  system: string;
  /** The current tools; asked before every model call, since MCP servers may change their lists. */
  tools(): Tool[];
  /**
   * What the request carries from those tools, and which tools a tool_use may name (tool search
   * defers some definitions and adds its own tool). Without it, every tool goes out in full.
   */
  offer?(tools: Tool[]): ToolOffer;
  /**
   * Before every model call, with what that call will carry: compacts the conversation when it
   * has grown past the threshold (compact.ts), returning what it did.
   */
  compact?(conversation: Conversation, request: { system: string; tools: ApiToolDefinition[]; signal: AbortSignal }): Promise<CompactInfo | undefined>;
  /**
   * A system-role message every request carries right after the conversation's first message
   * (the skills listing, where Claude Code puts it); undefined: none.
   */
  context?(): SystemMessageParam | undefined;
  /** Runs before every model call (MCP list_changed refresh). */
  beforeModelCall?(): Promise<void>;
  /**
   * Asked before a tool runs: true or `{behavior: "allow", updatedInput?}` runs it (with that
   * input instead, when given); false (the user refused) or `{behavior: "deny", message}` gives
   * the model an `is_error` result instead.
   */
  canUseTool?(tool: Tool, input: Record<string, unknown>, call: ToolUseBlock, agent?: AgentIdentity): Promise<PermissionDecision>;
  /** A running call's second question (ToolContext.confirm); absent: nobody can be asked. */
  confirmCall?(tool: Tool, input: Record<string, unknown>, call: ToolUseBlock, reason: string, agent?: AgentIdentity): Promise<boolean>;
  /**
   * After a tool ran (settings' PostToolUse hooks), with the input it ran with: `context` texts go
   * to the model as text blocks after that reply's tool_result blocks; `output`, when given, is what
   * the model reads instead (a search's results in denied paths left out).
   */
  afterTool?(
    call: ToolUseBlock,
    input: Record<string, unknown>,
    output: ToolOutput,
    agent?: AgentIdentity,
  ): Promise<{ context?: string[]; output?: ToolOutput }>;
  /** Checked after each reply's tool results: true ends the loop there, with an empty answer (a hook's `continue: false`). */
  halted?(): boolean;
  cwd: string;
  /** What the tools remember across calls in this conversation; handed to every call. */
  toolState?: ToolState;
  /** Paths the run's Read rules deny, for Grep and Glob to leave out (ToolContext.excluded). */
  excluded?: SearchExclusions;
  /** Checkpoints (agent/checkpoints): kept by subagents too, since their options spread this loop's. */
  fileChange?: FileChangeHook;
  /** The OS sandbox for Bash calls (ToolContext.sandbox). */
  sandbox?: ToolContext["sandbox"];
  maxTurns?: number;
  signal?: AbortSignal;
  hooks?: LoopHooks;
  /** Settings' SubagentStart and SubagentStop hooks, for the subagents this loop starts (turn.ts sets them). */
  subagentHooks?: {
    start(agent: AgentIdentity): Promise<void>;
    stop(agent: AgentIdentity, lastText: string, transcriptPath?: string): Promise<void>;
  };
  /** The session's transcript file, when it is saved: subagents save theirs beside it. */
  transcriptPath?(): string | undefined;
  /** How deep this loop runs: absent or 0 for a turn, 1 for its subagents, and so on (subagents/). */
  depth?: number;
}

/**
 * A tool that runs a loop of its own (the Agent tool, subagents/agent-tool.ts): it gets the loop's
 * options, so its conversation shares the parent's permission gate, hooks and compaction.
 */
export interface NestedTool extends Tool {
  runInLoop(input: Record<string, unknown>, ctx: ToolContext, parent: LoopOptions): Promise<ToolOutput>;
  /** Other names a call may use (a resumed transcript's `Task` for `Agent`). */
  aliases?: readonly string[];
  /** Calls may run at the same time as their neighbours although the tool is not read-only. */
  concurrent?: boolean;
}

const nested = (tool: Tool | undefined): NestedTool | undefined => (tool && "runInLoop" in tool ? (tool as NestedTool) : undefined);
/** Whether a call may run beside its neighbours in one reply. */
const together = (tool: Tool | undefined) => Boolean(tool?.readOnly || nested(tool)?.concurrent);

/** The subagent a call belongs to, as hooks see it (`agent_id`, `agent_type`). */
export interface AgentIdentity {
  id: string;
  type: string;
  /**
   * Its definition's `permissionMode`: applied only where it is stricter than the run's mode,
   * unless `modeTrusted`; nothing loosens plan mode.
   */
  permissionMode?: "default" | "acceptEdits" | "bypassPermissions" | "dontAsk" | "plan";
  /** The definition comes from the user (their home, a flag, the host) or a folder they trusted: its mode applies as written. */
  modeTrusted?: boolean;
}

/** A permission answer (the Agent SDK's PermissionResult shape, or a plain yes/no). */
export type PermissionDecision = boolean | { behavior: "allow"; updatedInput?: Record<string, unknown> } | { behavior: "deny"; message: string };

export interface LoopResult {
  /** The final reply's text. */
  text: string;
  /** Tool calls that failed with a bug rather than a ToolError (see `LoopHooks.onToolBug`). */
  toolBugs: number;
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

/**
 * Runs a reply's calls and returns exactly one tool_result per tool_use, in order. Consecutive
 * read-only calls run concurrently; anything that may change state runs alone, in order.
 */
async function runToolCalls(
  calls: ToolUseBlock[],
  tools: Tool[],
  opts: LoopOptions,
  signal: AbortSignal,
  truncated: ToolUseBlock | undefined,
): Promise<{ results: ToolResultContentBlock[]; followUp: TextBlock[] }> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const t of tools) for (const alias of nested(t)?.aliases ?? []) if (!byName.has(alias)) byName.set(alias, t);
  const results: ToolResultContentBlock[] = new Array(calls.length);
  const followUps: TextBlock[][] = new Array(calls.length);
  let i = 0;
  while (i < calls.length) {
    let j = i + 1;
    if (together(byName.get(calls[i]!.name))) while (j < calls.length && together(byName.get(calls[j]!.name))) j++;
    await Promise.all(
      calls.slice(i, j).map(async (call, k) => {
        [results[i + k], followUps[i + k]] = await runOne(call, byName.get(call.name), opts, signal, call === truncated);
      }),
    );
    i = j;
  }
  return { results, followUp: followUps.flat() };
}

async function runOne(
  call: ToolUseBlock,
  tool: Tool | undefined,
  opts: LoopOptions,
  signal: AbortSignal,
  truncated: boolean,
): Promise<[ToolResultContentBlock, TextBlock[]]> {
  opts.hooks?.onToolStart?.(call);
  const ran: { input?: Record<string, unknown> } = {};
  let output = await execute(call, tool, opts, signal, truncated, ran);
  // Text that follows the tool_result blocks, in call order: the tool's own (a skill's content),
  // then what its PostToolUse hooks added.
  const followUp: TextBlock[] = [...(output.followUp ?? [])];
  if (ran.input && opts.afterTool) {
    const after = await opts.afterTool(call, ran.input, output);
    followUp.push(...(after.context ?? []).map((text) => ({ type: "text" as const, text })));
    output = after.output ?? output;
  }
  const content = wellFormed(typeof output.content === "string" || output.content.length ? output.content : "(no output)");
  const result: ToolResultContentBlock = { type: "tool_result", tool_use_id: call.id, content };
  if (output.isError) result.is_error = true;
  opts.hooks?.onToolEnd?.(call, result);
  return [result, followUp];
}

/**
 * Output cut at a character limit can end in half a surrogate pair, which the API refuses as
 * invalid JSON (a 400 that would end the run): every tool's text passes through here.
 */
function wellFormed(content: ToolOutput["content"]): ToolOutput["content"] {
  if (typeof content === "string") return content.toWellFormed();
  return content.map((b) => (b.type === "text" ? { ...b, text: b.text.toWellFormed() } : b));
}

/** Runs one call; `ran.input` is set to the input it ran with once the tool was allowed to run. */
async function execute(
  call: ToolUseBlock,
  tool: Tool | undefined,
  opts: LoopOptions,
  signal: AbortSignal,
  truncated: boolean,
  ran: { input?: Record<string, unknown> },
): Promise<ToolOutput> {
  if (truncated) {
    return { isError: true, content: "This tool call was cut off by max_tokens and was not run: its input may be partial. Try again with a shorter call." };
  }
  if (signal.aborted) return { isError: true, content: "Interrupted by the user before this tool ran." };
  if (!tool) return { isError: true, content: `No such tool: ${call.name}` };
  let input = (call.input && typeof call.input === "object" ? call.input : {}) as Record<string, unknown>;
  try {
    const decision = opts.canUseTool ? await opts.canUseTool(tool, input, call) : true;
    if (decision === false) return { isError: true, content: `The user refused to run ${call.name}.` };
    if (typeof decision === "object" && decision.behavior === "deny") return { isError: true, content: decision.message };
    if (typeof decision === "object" && decision.updatedInput) input = decision.updatedInput;
    const progress = opts.hooks?.onToolProgress;
    ran.input = input;
    const ctx: ToolContext = {
      cwd: opts.cwd,
      signal,
      toolState: opts.toolState,
      callId: call.id,
      excluded: opts.excluded,
      fileChange: opts.fileChange,
      confirm: opts.confirmCall && ((reason) => opts.confirmCall!(tool, input, call, reason)),
      sandbox: opts.sandbox,
      onProgress: progress && ((message, kind) => progress(call, message, kind)),
    };
    const inLoop = nested(tool);
    return await (inLoop ? inLoop.runInLoop(input, ctx, opts) : tool.run(input, ctx));
  } catch (err) {
    // An interrupted tool may throw the abort reason; anything else that is not a ToolError is a bug.
    if (!(err instanceof ToolError) && !signal.aborted) opts.hooks?.onToolBug?.(call, err);
    return { isError: true, content: errorMessage(err) };
  }
}
