/**
 * The events of `--output-format stream-json` in host mode, in the Agent SDK's shapes
 * (`SDKSystemMessage`, `SDKAssistantMessage`, `SDKUserMessage`, `SDKPartialAssistantMessage`,
 * `SDKResultMessage`): every one carries `session_id` and a fresh `uuid`.
 */
import type { CompactInfo } from "../../agent/compact.ts";
import type { AssistantReply, MessageParam } from "../../agent/messages.ts";
import type { UsageTotals } from "../../agent/model/usage.ts";
import { VERSION } from "../flags/args.ts";
import type { SubagentEvent } from "../../agent/subagent-event.ts";
import { subagentStreamEvent } from "../../agent/subagents/stream-events.ts";

export interface InitFields {
  cwd: string;
  model: string;
  tools: string[];
  mcp_servers: { name: string; status: string }[];
  permissionMode: string;
  slash_commands: string[];
  apiKeySource: string;
  /** The skills the model may load (their command names). */
  skills?: string[];
  /** The agent types the Agent tool can start. */
  agents?: string[];
  /** Whether Bash runs in the OS sandbox; only when a settings file speaks of it. */
  sandbox_enabled?: boolean;
}

const base = (sessionId: string) => ({ uuid: crypto.randomUUID(), session_id: sessionId });

/** `{type:"system", subtype:"init", …}`: what this turn runs with. */
export function initEvent(sessionId: string, { skills = [], agents = [], ...f }: InitFields): object {
  return {
    type: "system",
    subtype: "init",
    ...f,
    claude_code_version: VERSION,
    output_style: "default",
    agents,
    skills,
    plugins: [],
    ...base(sessionId),
  };
}

/** `{type:"assistant", message}`: one model reply, as the Messages API returned it. */
export function assistantEvent(sessionId: string, reply: AssistantReply): object {
  return { type: "assistant", message: { ...reply, type: "message", role: "assistant" }, parent_tool_use_id: null, ...base(sessionId) };
}

/** `{type:"user", message}`: the tool_result message that went back to the model. */
export function userEvent(sessionId: string, message: MessageParam): object {
  return { type: "user", message, parent_tool_use_id: null, ...base(sessionId) };
}

/** `{type:"stream_event", event}`: one raw Messages API stream event (--include-partial-messages). */
/** `{type:"system", subtype:"compact_boundary"}`: the conversation was compacted before a model call (Claude Code's shape). */
export function compactBoundaryEvent(sessionId: string, info: CompactInfo): object {
  return { type: "system", subtype: "compact_boundary", compact_metadata: { trigger: info.trigger, pre_tokens: info.preTokens ?? null }, ...base(sessionId) };
}

/** A subagent's task_started, message (with parent_tool_use_id) or task_notification, as Claude Code sends it. */
export function subagentEvent(sessionId: string, e: SubagentEvent): object {
  return { ...subagentStreamEvent(e), ...base(sessionId) };
}

export function streamEvent(sessionId: string, event: { type: string }): object {
  return { type: "stream_event", event, parent_tool_use_id: null, ...base(sessionId) };
}

export interface HostResult {
  subtype: "success" | "error_max_turns" | "error_during_execution" | "error_max_structured_output_retries";
  /** The final answer's text (success), or what went wrong. */
  text: string;
  durationMs: number;
  durationApiMs: number;
  numTurns: number;
  stopReason: string | null;
  usage: UsageTotals;
  totalCostUsd: number;
  denials: { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[];
  /** Runs with an output schema only: the matching StructuredOutput input, or null. */
  structuredOutput?: unknown;
}

/**
 * `{type:"result", …}`, the end of one turn. An error result has `errors` (the SDK joins them into
 * the message it throws), a success one `result`.
 */
export function resultEvent(sessionId: string, o: HostResult): object {
  const ok = o.subtype === "success";
  return {
    type: "result",
    subtype: o.subtype,
    is_error: !ok,
    duration_ms: o.durationMs,
    duration_api_ms: o.durationApiMs,
    num_turns: o.numTurns,
    ...(ok ? { result: o.text } : { errors: [o.text] }),
    stop_reason: o.stopReason,
    total_cost_usd: o.totalCostUsd,
    usage: o.usage,
    modelUsage: {},
    permission_denials: o.denials,
    ...("structuredOutput" in o ? { structured_output: o.structuredOutput } : {}),
    ...base(sessionId),
  };
}

/**
 * `{type:"tool_progress", …}` (the SDK's `SDKToolProgressMessage`): a running tool moved on; sent
 * for an MCP task's status change. Never the SDK's `task_started`/`task_notification`: those are
 * its own background tasks, and its `stopTask` would be handed an MCP task id.
 */
export function toolProgressEvent(sessionId: string, call: { id: string; name: string }, elapsedSeconds: number): object {
  return {
    type: "tool_progress",
    tool_use_id: call.id,
    tool_name: call.name,
    parent_tool_use_id: null,
    elapsed_time_seconds: elapsedSeconds,
    ...base(sessionId),
  };
}
