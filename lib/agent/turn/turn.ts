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
import { runLoop, MaxTurnsError } from "../loop/loop.ts";
import type { LoopOptions, PermissionDecision } from "../loop/loop-options.ts";
import { ModelError } from "../model/model.ts";
import { addUserInput, recordInterrupt } from "./interrupts.ts";
import { usageMinus } from "../model/usage.ts";
import { shutdownSignal } from "../lifecycle.ts";
import { toolBugReport } from "./tool-bugs.ts";
import { runStopHooks } from "../policy/stop-hooks.ts";
import { type ModePermissions, ToolGate } from "../policy/gate.ts";
import { STRUCTURED_OUTPUT_REMINDER, StructuredOutputCall } from "../../tools/structured-output.ts";
import { withPlanNote } from "../plan/plan-context.ts";
import type { TurnInput, TurnMode, TurnOutcome, TurnTotals } from "./turn-shapes.ts";
import { promptText, userContent } from "./user-content.ts";

/** A mode's part when it has none: no mode, no flags, nobody to ask. */
const EVERY_TOOL_RUNS: ModePermissions = { mode: () => undefined, flagAllows: () => false };

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
    usage: usageMinus(runtime.ownUsage(), before.usage),
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
