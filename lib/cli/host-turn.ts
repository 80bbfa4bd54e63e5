/**
 * One turn of host mode: a `user` message from stdin through the tool-use loop, with the SDK's
 * events on stdout (system/init, assistant, user, stream_event, result) and permission questions
 * sent to the host as `can_use_tool` control requests (`--permission-prompt-tool stdio`).
 */
import type { Conversation } from "../agent/conversation.ts";
import type { ContentBlock } from "../agent/messages.ts";
import { runLoop, MaxTurnsError, type PermissionDecision } from "../agent/loop.ts";
import { ModelError } from "../agent/model.ts";
import { InputError, parseInput } from "../agent/input.ts";
import { needsPermission } from "../agent/permissions.ts";
import type { Tool } from "../tools/tool.ts";
import { isAllowed } from "./repl-permission.ts";
import { printBuiltin, PRINT_BUILTINS } from "./print-commands.ts";
import type { HostChannel } from "./host-channel.ts";
import { slashCommands, TurnInterrupted, type HostState } from "./host-control.ts";
import { assistantEvent, initEvent, resultEvent, streamEvent, userEvent, type TurnOutcome } from "./host-events.ts";
import type { UsageTotals } from "../agent/usage.ts";
import { shutdownSignal } from "../agent/lifecycle.ts";
import { errorMessage } from "../shared/values.ts";

/** A `user` line of stdin (the SDK's `SDKUserMessage`). */
export interface UserLine {
  type: "user";
  message?: { role?: string; content?: unknown };
}

const stderr = (line: string) => process.stderr.write(`${line}\n`);

/** The blocks of a user message: a string goes through the input path (commands, @mentions); blocks pass as they are. */
async function userContent(content: unknown, state: HostState): Promise<{ builtin?: string; content: ContentBlock[] }> {
  if (typeof content === "string") {
    const cwd = state.runtime.opts.cwd;
    state.runtime.skills?.newTurn();
    const parsed = await parseInput(content, {
      cwd,
      builtins: PRINT_BUILTINS,
      mcp: state.runtime.mcpInput(),
      skills: state.runtime.skillInput(),
      warn: stderr,
    });
    return parsed.kind === "builtin" ? { builtin: parsed.name, content: [] } : { content: parsed.content };
  }
  if (!Array.isArray(content)) throw new InputError("user message without content (a string or an array of content blocks)");
  const blocks = content.filter((b): b is ContentBlock => typeof b === "object" && b !== null && typeof (b as { type?: unknown }).type === "string");
  if (!blocks.length) throw new InputError("user message with no content blocks");
  return { content: blocks };
}

const minus = (a: UsageTotals, b: UsageTotals): UsageTotals => ({
  input_tokens: a.input_tokens - b.input_tokens,
  output_tokens: a.output_tokens - b.output_tokens,
  cache_creation_input_tokens: a.cache_creation_input_tokens - b.cache_creation_input_tokens,
  cache_read_input_tokens: a.cache_read_input_tokens - b.cache_read_input_tokens,
});

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
  const apiBefore = runtime.model.apiMs;
  const usageBefore = runtime.meter.total();
  const costBefore = runtime.meter.totalCostUsd() ?? 0;
  const controller = new AbortController();
  state.current = controller;
  const denials: TurnOutcome["denials"] = [];
  let numTurns = 0;
  let stopReason: string | null = null;
  const mark = conversation.mark();
  const sid = () => conversation.sessionId;
  const finish = (subtype: TurnOutcome["subtype"], text: string, stopReason: string | null = null) =>
    emit(
      resultEvent(sid(), {
        subtype,
        text,
        durationMs: Math.round(performance.now() - started),
        durationApiMs: Math.round(runtime.model.apiMs - apiBefore),
        numTurns,
        stopReason,
        usage: minus(runtime.meter.total(), usageBefore),
        totalCostUsd: (runtime.meter.totalCostUsd() ?? 0) - costBefore,
        denials,
      }),
    );
  try {
    emit(
      initEvent(sid(), {
        cwd: runtime.opts.cwd,
        model: runtime.model.model,
        tools: runtime.tools().map((t) => t.name),
        mcp_servers: runtime.servers().map(({ name, status }) => ({ name, status: runtime.disabled.has(name) ? "disabled" : status })),
        permissionMode: state.mode ?? "bypassPermissions",
        slash_commands: slashCommands(state),
        apiKeySource: process.env.ANTHROPIC_API_KEY ? "ANTHROPIC_API_KEY" : "none",
        skills: runtime.skills?.all().map((s) => s.name),
      }),
    );
    const input = await userContent(line.message?.content, state);
    if (input.builtin) return finish("success", printBuiltin(input.builtin, runtime));
    conversation.append({ role: "user", content: input.content });
    const canUseTool = async (tool: Tool, toolInput: Record<string, unknown>, call: { id: string }): Promise<PermissionDecision> => {
      const mode = state.mode;
      if (!mode || !needsPermission(tool, mode) || isAllowed(tool.name, [...args.allowedTools, ...runtime.skillGrants()], (n, r) => runtime.matchesRule(n, r)))
        return true;
      const deny = (message: string): PermissionDecision => {
        denials.push({ tool_name: tool.name, tool_use_id: call.id, tool_input: toolInput });
        return { behavior: "deny", message };
      };
      if (!args.permissionPromptStdio) return deny(`Permission to use ${tool.name} was not granted (--permission-mode ${mode}).`);
      const answer = await channel.request(
        { subtype: "can_use_tool", tool_name: tool.name, input: toolInput, tool_use_id: call.id, permission_suggestions: [] },
        controller.signal,
      );
      if (answer.behavior === "allow") {
        const updated = answer.updatedInput;
        return { behavior: "allow", updatedInput: updated && typeof updated === "object" ? (updated as Record<string, unknown>) : undefined };
      }
      return deny(typeof answer.message === "string" && answer.message ? answer.message : `The host denied ${tool.name}.`);
    };
    const result = await runLoop(conversation, {
      model: runtime.model,
      system: runtime.systemPrompt(),
      tools: () => runtime.tools(),
      context: () => runtime.skillContext(),
      beforeModelCall: async () => {
        await runtime.refresh();
        conversation.noteRoutes(runtime.routes());
      },
      canUseTool,
      cwd: runtime.opts.cwd,
      toolState: state.tools,
      maxTurns: args.maxTurns,
      signal: AbortSignal.any([controller.signal, shutdownSignal]),
      hooks: {
        onAssistant: (reply) => {
          numTurns++;
          stopReason = reply.stop_reason;
          emit(assistantEvent(sid(), reply));
        },
        onToolResults: (m) => emit(userEvent(sid(), m)),
        onStreamEvent: args.includePartialMessages ? (event) => emit(streamEvent(sid(), event)) : undefined,
      },
    });
    finish("success", result.text, stopReason);
  } catch (err) {
    if (controller.signal.aborted) {
      conversation.closeInterrupted();
      finish("error_during_execution", "Interrupted by the host.");
    } else if (err instanceof MaxTurnsError) {
      finish("error_max_turns", err.message);
    } else {
      if (err instanceof ModelError && (err.status === 400 || err.status === 413)) conversation.rollback(mark);
      const message = errorMessage(err);
      if (!(err instanceof ModelError || err instanceof InputError || err instanceof TurnInterrupted)) stderr(`error: ${message}`);
      finish("error_during_execution", message);
    }
  } finally {
    state.current = undefined;
  }
}
