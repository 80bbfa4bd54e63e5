/**
 * One turn of host mode: a `user` message from stdin through the shared turn (lib/agent/turn/turn.ts), with the
 * SDK's events on stdout (system/init, assistant, user, stream_event, result) and permission
 * questions sent to the host as `can_use_tool` control requests (`--permission-prompt-tool stdio`).
 */
import type { Conversation } from "../../agent/conversation.ts";
import type { ContentBlock } from "../../agent/messages.ts";
import type { PermissionDecision } from "../../agent/loop/loop-options.ts";
import { ModelError } from "../../agent/model/model.ts";
import { InputError } from "../../agent/input/input.ts";
import { flagsAllow, type ModePermissions } from "../../agent/policy/gate.ts";
import type { Tool } from "../../tools/tool.ts";
import { PERMISSION_MODES, type PermissionMode } from "../../agent/permissions/modes.ts";
import { questionsProblem } from "../../tools/ask-user/ask-user-question.ts";
import { printBuiltin, PRINT_BUILTINS } from "../commands/builtins.ts";
import type { HostChannel } from "./channel.ts";
import { slashCommands, TurnInterrupted, type HostState } from "./control.ts";
import {
  assistantEvent,
  compactBoundaryEvent,
  initEvent,
  resultEvent,
  streamEvent,
  subagentEvent,
  toolProgressEvent,
  userEvent,
  type HostResult,
} from "./events.ts";
import { zeroUsage } from "../../agent/model/usage.ts";
import { errorMessage } from "../../shared/values.ts";
import { runTurn } from "../../agent/turn/turn.ts";
import type { TurnOutcome } from "../../agent/turn/turn-shapes.ts";
import { sandboxInitField } from "../../agent/sandboxing/run-sandbox.ts";
import { ourColoursOnly } from "../../shared/terminal-text.ts";

/** A `user` line of stdin (the SDK's `SDKUserMessage`). */
export interface UserLine {
  type: "user";
  /** The SDK's id for the message: its checkpoint's name (`rewindFiles(uuid)`). */
  uuid?: string;
  message?: { role?: string; content?: unknown };
}

// A host may show these lines: a quoted server or file keeps no code of its own.
const stderr = (line: string) => process.stderr.write(`${ourColoursOnly(line)}\n`);

/** Runs one turn to its result event. Never throws: every failure ends in an error result. */
export async function runHostTurn(
  line: UserLine,
  state: HostState,
  channel: HostChannel,
  conversation: Conversation,
  emit: (m: object) => void,
): Promise<void> {
  const { runtime, args } = state;
  const started = performance.now();
  const controller = new AbortController();
  state.current = controller;
  const sid = () => conversation.sessionId;
  const result = (subtype: HostResult["subtype"], text: string, outcome?: TurnOutcome, stopReason: string | null = null, structured?: { value: unknown }) =>
    emit(
      resultEvent(sid(), {
        subtype,
        text,
        durationMs: Math.round(performance.now() - started),
        durationApiMs: Math.round(outcome?.apiMs ?? 0),
        numTurns: outcome?.numTurns ?? 0,
        stopReason,
        usage: outcome?.usage ?? zeroUsage(),
        totalCostUsd: outcome?.costUsd ?? 0,
        denials: outcome?.denials ?? [],
        ...(structured ? { structuredOutput: structured.value } : {}),
      }),
    );
  try {
    emit(
      initEvent(sid(), {
        cwd: runtime.opts.cwd,
        model: runtime.model.model,
        // Claude Code's init names the Agent tool `Task` (the model sees `Agent`).
        tools: runtime.tools().map((t) => (t === runtime.subagents?.tool ? "Task" : t.name)),
        mcp_servers: runtime.servers().map(({ name, status }) => ({ name, status: runtime.disabled.has(name) ? "disabled" : status })),
        permissionMode: state.mode ?? "bypassPermissions",
        slash_commands: slashCommands(state),
        apiKeySource: process.env.ANTHROPIC_API_KEY ? "ANTHROPIC_API_KEY" : "none",
        skills: runtime.skills?.all().map((s) => s.name),
        agents: runtime.subagents?.agents.map((a) => a.name),
        ...sandboxInitField(runtime.opts),
      }),
    );
    const started = new Map<string, number>();
    const outcome = await runTurn(
      {
        runtime,
        conversation,
        toolState: state.tools,
        builtins: PRINT_BUILTINS,
        maxTurns: args.maxTurns,
        debug: args.debug,
        outputSchema: args.outputSchema,
        checkpoints: state.checkpoints,
      },
      {
        input: userInput(line.message?.content),
        messageId: typeof line.uuid === "string" && line.uuid ? line.uuid : undefined,
        interrupt: controller.signal,
        permissions: hostPermissions(state, channel, controller.signal),
        events: {
          line: stderr,
          onAssistant: (reply) => emit(assistantEvent(sid(), reply)),
          onToolResults: (m) => emit(userEvent(sid(), m)),
          onSubagent: (e) => emit(subagentEvent(sid(), e)),
          onStreamEvent: args.includePartialMessages ? (event) => emit(streamEvent(sid(), event)) : undefined,
          onCompact: (info) => emit(compactBoundaryEvent(sid(), info)),
          // An MCP task's status change is the SDK's tool_progress for its tool_use (basic/utilities/tasks).
          onToolStart: (call) => void started.set(call.id, performance.now()),
          onToolProgress: (call, _message, kind) => {
            if (kind === "task") emit(toolProgressEvent(sid(), call, Math.floor((performance.now() - (started.get(call.id) ?? 0)) / 1000)));
          },
        },
      },
    );
    switch (outcome.kind) {
      case "builtin":
        return result("success", printBuiltin(outcome.name, runtime), outcome);
      case "success": {
        const structured = outcome.structured;
        if (structured?.exhausted) {
          const message = "The model gave no input matching the output schema within MAX_STRUCTURED_OUTPUT_RETRIES calls of StructuredOutput.";
          return result("error_max_structured_output_retries", message, outcome, outcome.stopReason);
        }
        // The Agent SDK's outputFormat: `result` is the value's JSON, `structured_output` the value (null when the model only wrote text).
        if (structured && structured.value !== null) return result("success", JSON.stringify(structured.value), outcome, outcome.stopReason, structured);
        return result("success", outcome.text, outcome, outcome.stopReason, structured);
      }
      case "interrupted":
        return result("error_during_execution", "Interrupted by the host.", outcome);
      case "max_turns":
        return result("error_max_turns", outcome.error.message, outcome);
      case "error": {
        const err = outcome.error;
        if (!(err instanceof ModelError || err instanceof InputError || err instanceof TurnInterrupted)) stderr(`error: ${errorMessage(err)}`);
        return result("error_during_execution", errorMessage(err), outcome);
      }
    }
  } catch (err) {
    const message = errorMessage(err);
    if (!(err instanceof InputError)) stderr(`error: ${message}`);
    result("error_during_execution", message);
  } finally {
    state.current = undefined;
  }
}

/** A string goes through the input path (commands, @mentions); blocks pass as they are. */
function userInput(content: unknown): string | ContentBlock[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new InputError("user message without content (a string or an array of content blocks)");
  return content as ContentBlock[];
}

/**
 * Host mode's part in the permission decision (policy/): the mode the host set (none: every tool
 * runs), --allowedTools, and the host's answer to `can_use_tool` when it asked for questions
 * (`--permission-prompt-tool stdio`); without that, nobody is asked and an ask is refused.
 */
export function hostPermissions(state: HostState, channel: HostChannel, signal: AbortSignal): ModePermissions {
  const { runtime, args } = state;
  return {
    mode: () => state.mode,
    flagAllows: (tool, input) => flagsAllow(runtime, args.allowedTools, tool, input),
    flagRules: () => [...args.allowedTools, ...runtime.skillRules()],
    ask: args.permissionPromptStdio
      ? async (tool, input, call, _message, about) => {
          // Questions that break AskUserQuestion's schema never reach the host: one error result instead.
          const malformed = tool.name === "AskUserQuestion" ? questionsProblem(input) : undefined;
          if (malformed) return { behavior: "deny", message: `<tool_use_error>${malformed}</tool_use_error>` };
          let chosen: PermissionMode | undefined;
          const answer = await askHost(channel, signal, tool, input, call, about?.agent?.id, about?.reason, (mode) => (chosen = mode));
          // The SDK's `updatedPermissions: [{type: "setMode"}]` sets the mode; a plan approved without one ends plan mode in default.
          if (chosen) state.mode = chosen;
          else if (tool.name === "ExitPlanMode" && answer !== false && (answer === true || answer.behavior === "allow") && state.mode === "plan")
            state.mode = "default";
          return answer;
        }
      : undefined,
  };
}

/** The host's answer to `can_use_tool`. */
async function askHost(
  channel: HostChannel,
  signal: AbortSignal,
  tool: Tool,
  toolInput: Record<string, unknown>,
  call: { id: string },
  agentId?: string,
  reason?: string,
  setMode?: (mode: PermissionMode) => void,
): Promise<PermissionDecision> {
  // A subagent's call names the agent (the SDK hands it to canUseTool as agentID).
  const answer = await channel.request(
    {
      subtype: "can_use_tool",
      tool_name: tool.name,
      input: toolInput,
      tool_use_id: call.id,
      permission_suggestions: [],
      ...(agentId ? { agent_id: agentId } : {}),
      ...(reason ? { decision_reason: reason } : {}),
    },
    signal,
  );
  if (answer.behavior === "allow") {
    for (const u of Array.isArray(answer.updatedPermissions) ? (answer.updatedPermissions as { type?: unknown; mode?: unknown }[]) : [])
      if (u?.type === "setMode" && PERMISSION_MODES.includes(u.mode as PermissionMode)) setMode?.(u.mode as PermissionMode);
    const updated = answer.updatedInput;
    return { behavior: "allow", updatedInput: updated && typeof updated === "object" ? (updated as Record<string, unknown>) : undefined };
  }
  return { behavior: "deny", message: typeof answer.message === "string" && answer.message ? answer.message : `The host denied ${tool.name}.` };
}
