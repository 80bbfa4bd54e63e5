/**
 * One turn, the same in every mode (-p, the interactive session, host mode): the input through the
 * input path (commands, @mentions), the user message joined to what an interrupt left, the tool-use
 * loop with tool search, auto-compaction and the list_changed refresh, permission decisions, the
 * interrupt's bookkeeping (streamed text kept, `[Request interrupted by user]`), a refused request
 * rolled back, and the turn's usage and cost. The conversation writes the transcript as it grows.
 *
 * The run's settings (runtime.opts.settings, lib/agent/settings) add Claude Code's rules and hooks
 * to every mode's turn: SessionStart and UserPromptSubmit before the message, the permission gate
 * around the mode's own question, PostToolUse after each call, PreCompact, and Stop at the end.
 *
 * Modes differ only in how they ask (`permissions`, decided by policy/) and how they show events (`events`): the
 * request each mode sends is its own only in streaming, which follows from the events it shows
 * (`onText` or `onStreamEvent` make the loop stream; -p sets neither).
 */
import type { AgentRuntime } from "./runtime.ts";
import type { Conversation } from "./conversation.ts";
import type { ContentBlock } from "./messages.ts";
import { parseInput, InputError } from "./input/input.ts";
import { runLoop, MaxTurnsError, type LoopHooks, type LoopOptions, type PermissionDecision } from "./loop.ts";
import { ModelError } from "./model.ts";
import { addUserInput, recordInterrupt } from "./interrupts.ts";
import type { UsageTotals } from "./usage.ts";
import type { ToolState } from "../tools/tool-state.ts";
import { shutdownSignal } from "./lifecycle.ts";
import { toolBugReport } from "./tool-bugs.ts";
import { runStopHooks } from "./policy/stop-hooks.ts";
import { type ModePermissions, ToolGate } from "./policy/gate.ts";
import { raceAbort } from "../shared/async.ts";
import type { CompiledSchema } from "../tools/json-schema.ts";
import { STRUCTURED_OUTPUT_REMINDER, StructuredOutputCall } from "../tools/structured-output.ts";
import type { FileCheckpoints } from "./checkpoints/tracker.ts";
import { withPlanNote } from "./plan/plan-context.ts";

/** A mode's part when it has none: no mode, no flags, nobody to ask. */
const EVERY_TOOL_RUNS: ModePermissions = { mode: () => undefined, flagAllows: () => false };

/** What a mode shows of a turn: the loop's hooks, plus the turn's own notices. */
export interface TurnEvents extends Omit<LoopHooks, "onToolBug"> {
  /** The turn waits for servers still connecting (the session's background start-up). */
  onWaitingForServers?(names: string): void;
  /** The input is a message for the model (not a built-in): called once, before it joins the conversation. */
  onUserMessage?(): void;
  /** A diagnostic line for a person (a mention naming no server, a tool bug's report). */
  line(text: string): void;
}

/** How a mode runs turns: fixed for its run. */
export interface TurnMode {
  runtime: AgentRuntime;
  conversation: Conversation;
  /** What the tools remember across this conversation's calls. */
  toolState: ToolState;
  /** Built-in commands the mode answers itself, without the model. */
  builtins: ReadonlySet<string>;
  /** Built-ins that need no server, so they never wait for one still connecting. */
  builtinsWithoutServers?: ReadonlySet<string>;
  maxTurns?: number;
  /** --debug: a tool's bug shows its stack at once. */
  debug?: boolean;
  /** `--json-schema`: each turn offers StructuredOutput and ends when a call matches (structured-output.ts). */
  outputSchema?: CompiledSchema;
  /** File checkpoints, when on (checkpoints/): each user message starts a snapshot. */
  checkpoints?: FileCheckpoints;
}

/** One input to run. */
export interface TurnInput {
  /** Typed text (commands and mentions expand), or blocks that go as they are (host mode). */
  input: string | ContentBlock[];
  /** The mode's interrupt (Esc, Ctrl-C, the host's `interrupt`); shutdown interrupts every turn too. */
  interrupt: AbortSignal;
  /** The id the host gave the user message (the SDK's `uuid`): its checkpoint's name. */
  messageId?: string;
  /**
   * The mode's part in the permission decision (policy/gate.ts): its permission mode, what its flags
   * allow, and how it asks. Absent: every tool runs unless a settings rule or hook says otherwise.
   */
  permissions?: ModePermissions;
  events: TurnEvents;
}

/** How a turn ended; usage, cost and API time are this turn's own. */
export type TurnOutcome = TurnTotals &
  (
    | { kind: "builtin"; name: string; args: string }
    | {
        kind: "success";
        text: string;
        stopReason: string | null;
        /**
         * With `outputSchema`: the matching StructuredOutput input (`value` null when the model
         * answered in text twice), or `exhausted` when it made too many invalid calls.
         */
        structured?: { value: unknown; exhausted: boolean };
      }
    | { kind: "max_turns"; error: MaxTurnsError }
    | { kind: "interrupted" }
    /** `rolledBack`: the API refused the request itself (400, 413), so the turn was dropped whole. */
    | { kind: "error"; error: unknown; rolledBack: boolean }
  );

export interface TurnTotals {
  /** Model calls the loop made. */
  numTurns: number;
  usage: UsageTotals;
  costUsd: number;
  apiMs: number;
  /** Tool calls refused by the mode's question, with their inputs (the Agent SDK's `permission_denials`). */
  denials: { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[];
}

/**
 * Runs one input to its outcome. Never throws for the turn's own failures (a model error, bad
 * input, --max-turns, an interrupt): they are the outcome. Built-in commands are returned, not run:
 * each mode answers them in its own way.
 */
export async function runTurn(mode: TurnMode, turn: TurnInput): Promise<TurnOutcome> {
  const { runtime, conversation } = mode;
  // The turn's usage is its own (its subagents' calls are in the cost only), as Claude Code reports it.
  const before = { api: runtime.model.apiMs, usage: runtime.ownUsage(), cost: runtime.meter.totalCostUsd() ?? 0 };
  const totals: Pick<TurnTotals, "numTurns" | "denials"> = { numTurns: 0, denials: [] };
  const close = <T extends object>(outcome: T): T & TurnTotals => ({
    ...outcome,
    ...totals,
    usage: minus(runtime.ownUsage(), before.usage),
    costUsd: (runtime.meter.totalCostUsd() ?? 0) - before.cost,
    apiMs: runtime.model.apiMs - before.api,
  });
  const signal = AbortSignal.any([turn.interrupt, shutdownSignal]);
  // Where this turn's messages start: a request the API refuses is dropped whole.
  let mark = conversation.mark();
  let added = false;
  // Text the current model call has streamed: kept in the conversation if the turn is interrupted.
  let partial = "";
  const bugs = toolBugReport(turn.events.line, mode.debug ?? false);
  // What a skill's allowed-tools let run lasts until the turn ends (Claude Code skills.md).
  runtime.skills?.newTurn();
  const settings = runtime.opts.settings;
  try {
    let content = await userContent(mode, turn, signal);
    if (!Array.isArray(content)) return close(content);
    if (settings) {
      settings.follow(conversation.sessionId);
      const verdict = await settings.promptSubmit(typeof turn.input === "string" ? turn.input : promptText(content), turn.events.line);
      // Claude Code drops the prompt and makes no model call; the message is for the user, never stdout.
      if (!("context" in verdict)) {
        turn.events.line("drop" in verdict ? verdict.drop : verdict.stop);
        return close({ kind: "success", text: "", stopReason: null });
      }
      content = [...(await settings.sessionStart(turn.events.line)), ...content, ...verdict.context];
    }
    turn.events.onUserMessage?.();
    mark = addUserInput(conversation, content);
    added = true;
    mode.checkpoints?.beginTurn(turn.messageId ?? conversation.all.at(-1)!.id);
    let stopReason: string | null = null;
    const { onText, onAssistant, onWaitingForServers, onUserMessage, line, ...events } = turn.events;
    const streams = onText !== undefined || events.onStreamEvent !== undefined;
    // One gate for every mode (policy/): without settings and without a mode's part, nothing is asked.
    const gate =
      settings || turn.permissions
        ? new ToolGate({
            settings: settings?.settings,
            route: (name) => runtime.route(name),
            shellCwd: () => mode.toolState.shellDirectory().cwd,
            cwd: runtime.opts.cwd,
            permissions: turn.permissions ?? EVERY_TOOL_RUNS,
            notice: turn.events.line,
            sandbox: runtime.opts.sandbox?.facts,
          })
        : undefined;
    const ask = gate?.canUseTool;
    // Per turn, never for subagents: they get their tools from the runtime, not from here.
    const structured = mode.outputSchema && new StructuredOutputCall(mode.outputSchema);
    const loop: LoopOptions = {
      model: runtime.model,
      system: runtime.systemPrompt(),
      tools: structured ? () => [...runtime.tools(), structured.tool] : () => runtime.tools(),
      offer: (tools) => runtime.offer(tools),
      // The skills and agent listings (and plan mode's note), after the first message of every request, where Claude Code puts them.
      context: () => withPlanNote(runtime.context(), turn.permissions?.mode(), () => runtime.tools().some((t) => t.name === "ExitPlanMode")),
      compact: (c, request) => runtime.autoCompact(c, request, settings && (() => settings.preCompact("auto", "", turn.events.line))),
      beforeModelCall: async () => {
        await runtime.refresh();
        conversation.noteRoutes(runtime.routes());
      },
      canUseTool: ask && recordingDenials(ask, totals.denials),
      afterTool: settings ? gate?.afterTool : undefined,
      confirmCall: gate?.confirmCall,
      subagentHooks: settings && {
        start: (agent) => settings.subagentStart(agent, turn.events.line),
        stop: (agent, lastText, path) => settings.subagentStop(agent, lastText, turn.events.line, path),
      },
      // A matching StructuredOutput call ends the run at once: no further model request.
      halted: structured ? () => structured.finished || (gate?.halted?.() ?? false) : gate?.halted,
      cwd: runtime.opts.cwd,
      excluded: settings?.searchExclusions(),
      sandbox: runtime.opts.sandbox?.forBash,
      transcriptPath: () => conversation.transcriptPath,
      toolState: mode.toolState,
      fileChange: mode.checkpoints?.hook,
      maxTurns: mode.maxTurns,
      signal,
      hooks: {
        ...events,
        // Set only when the mode streams anyway: -p's requests stay plain.
        onText: streams
          ? (delta) => {
              partial += delta;
              onText?.(delta);
            }
          : undefined,
        onAssistant: (reply) => {
          partial = "";
          totals.numTurns++;
          stopReason = reply.stop_reason;
          onAssistant?.(reply);
        },
        onToolBug: bugs.onToolBug,
      },
    };
    let result = await runLoop(conversation, loop);
    if (structured && !structured.finished && gate?.stopped === undefined) {
      // One reminder when the model ended in text (Claude Code's rule); text again ends the run with a null value.
      if (loop.maxTurns !== undefined && totals.numTurns >= loop.maxTurns) throw new MaxTurnsError(loop.maxTurns);
      conversation.append({ role: "user", content: [{ type: "text", text: STRUCTURED_OUTPUT_REMINDER }] });
      result = await runLoop(conversation, { ...loop, maxTurns: loop.maxTurns === undefined ? undefined : loop.maxTurns - totals.numTurns });
    }
    if (settings && gate) result = await runStopHooks(settings, gate, conversation, loop, result, () => totals.numTurns, turn.events.line);
    const crashed = bugs.summary();
    if (crashed) turn.events.line(crashed);
    return close({
      kind: "success",
      text: result.text,
      stopReason,
      ...(structured ? { structured: { value: structured.accepted ? structured.value : null, exhausted: structured.exhausted } } : {}),
    });
  } catch (err) {
    if (turn.interrupt.aborted) {
      if (added) recordInterrupt(conversation, partial);
      return close({ kind: "interrupted" });
    }
    if (err instanceof MaxTurnsError) return close({ kind: "max_turns", error: err });
    // Kept, a refused request would be resent, and refused, on every later turn (and on --resume).
    const refused = err instanceof ModelError && (err.status === 400 || err.status === 413);
    if (refused) conversation.rollback(mark);
    return close({ kind: "error", error: err, rolledBack: refused });
  }
}

/** The message's blocks, or the built-in the input names. */
async function userContent(mode: TurnMode, turn: TurnInput, signal: AbortSignal): Promise<ContentBlock[] | { kind: "builtin"; name: string; args: string }> {
  const { runtime } = mode;
  if (Array.isArray(turn.input)) {
    const blocks = turn.input.filter((b) => typeof b === "object" && b !== null && typeof (b as { type?: unknown }).type === "string");
    if (!blocks.length) throw new InputError("user message with no content blocks");
    return blocks;
  }
  const text = turn.input;
  // A turn needs every server that may still connect (each within MCP_TIMEOUT); /mcp and the like do not.
  const builtin = /^\/(\S+)/.exec(text.trim())?.[1];
  if (runtime.connecting.size && !(builtin && mode.builtinsWithoutServers?.has(builtin))) {
    turn.events.onWaitingForServers?.([...runtime.connecting].join(", "));
    await raceAbort(runtime.connected, signal);
  }
  const parsed = await raceAbort(
    parseInput(text, {
      cwd: runtime.opts.cwd,
      builtins: mode.builtins,
      mcp: runtime.mcpInput(),
      skills: runtime.skillInput(),
      warn: turn.events.line,
      readDenied: runtime.opts.settings?.readDenied,
    }),
    signal,
  );
  return parsed.kind === "builtin" ? parsed : parsed.content;
}

/** The text a UserPromptSubmit hook sees: the message's text blocks, joined. */
function promptText(content: ContentBlock[]): string {
  return content
    .filter((b): b is Extract<ContentBlock, { type: "text" }> => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

type CanUseTool = NonNullable<LoopOptions["canUseTool"]>;

/** The permission gate, noting each refusal for the turn's `denials`. */
function recordingDenials(ask: CanUseTool, denials: TurnTotals["denials"]): CanUseTool {
  return async (tool, input, call, agent): Promise<PermissionDecision> => {
    const decision = await ask(tool, input, call, agent);
    if (decision === false || (typeof decision === "object" && decision.behavior === "deny")) {
      denials.push({ tool_name: tool.name, tool_use_id: call.id, tool_input: input });
    }
    return decision;
  };
}

const minus = (a: UsageTotals, b: UsageTotals): UsageTotals => ({
  input_tokens: a.input_tokens - b.input_tokens,
  output_tokens: a.output_tokens - b.output_tokens,
  cache_creation_input_tokens: a.cache_creation_input_tokens - b.cache_creation_input_tokens,
  cache_read_input_tokens: a.cache_read_input_tokens - b.cache_read_input_tokens,
});
