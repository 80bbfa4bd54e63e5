/**
 * What the tool-use loop (loop.ts) is given and gives back: its options and hooks, a permission
 * answer, the subagent a call belongs to, and the shape of a tool that runs a loop of its own.
 * Types only: every mode, the policy and the subagents name them without loading the loop.
 */
import type { ToolState } from "../../tools/tool-state.ts";
import type { FileChangeHook, SearchExclusions, Tool, ToolContext, ToolOutput } from "../../tools/tool.ts";
import type { ApiToolDefinition, AssistantReply, MessageParam, SystemMessageParam, ToolResultContentBlock, ToolUseBlock } from "../messages.ts";
import type { ModelClient } from "../model/model.ts";
import type { ToolOffer } from "../tool-search/tool-search.ts";
import type { Conversation } from "../conversation.ts";
import type { CompactInfo } from "../compact.ts";
import type { SubagentEvent } from "../subagent-event.ts";

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
