/**
 * What a mode hands the shared turn (turn.ts) and what it gets back: the mode's fixed part (TurnMode),
 * one input with how to ask and what to show (TurnInput, TurnEvents), and how the turn ended
 * (TurnOutcome with its TurnTotals). Types only, so modes can name them without loading the turn.
 */
import type { AgentRuntime } from "../runtime/runtime.ts";
import type { Conversation } from "../conversation.ts";
import type { ContentBlock } from "../messages.ts";
import type { MaxTurnsError } from "../loop/loop.ts";
import type { LoopHooks } from "../loop/loop-options.ts";
import type { UsageTotals } from "../model/usage.ts";
import type { ToolState } from "../../tools/tool-state.ts";
import type { ModePermissions } from "../policy/gate.ts";
import type { CompiledSchema } from "../../tools/json-schema.ts";
import type { FileCheckpoints } from "../checkpoints/tracker.ts";

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
