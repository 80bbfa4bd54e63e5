/**
 * Print-mode output formats, with Claude Code's shapes: `text` (the final answer), `json` (one
 * result object) and `stream-json` (one JSON event per line: system/init, assistant, user, result).
 */
import type { AssistantReply, MessageParam } from "../../agent/messages.ts";
import type { UsageTotals } from "../../agent/model/usage.ts";
import type { CompactInfo } from "../../agent/compact.ts";
import type { OutputFormat } from "../flags/args.ts";
import { writeStdout } from "../io/stdout.ts";
import type { SubagentEvent } from "../../agent/subagent-event.ts";
import { subagentStreamEvent } from "../../agent/subagents/stream-events.ts";

export interface ResultEvent {
  type: "result";
  subtype: "success" | "error_max_turns" | "error_during_execution" | "error_max_structured_output_retries";
  is_error: boolean;
  /** The answer; on an error, its message (what scripts read), or "" for error_max_turns. */
  result: string;
  /** Error results only: the error messages, as in the Agent SDK's result (and host mode's). */
  errors?: string[];
  num_turns: number;
  duration_ms: number;
  duration_api_ms: number;
  usage: UsageTotals;
  /** USD from the price table (lib/agent/model/model-table.ts); null when a model of the run has no price. */
  total_cost_usd: number | null;
  session_id: string;
  /** `--json-schema` runs only: the StructuredOutput input that matched, or null (Claude Code's field). */
  structured_output?: unknown;
  /** stream-json: the result of a turn a background task's notice started (Claude Code's field). */
  origin?: { kind: "task-notification" };
}

export interface InitInfo {
  tools: string[];
  cwd: string;
  model: string;
  mcp_servers: { name: string; status: string }[];
  /** The agent types, when the Agent tool is offered (Claude Code's init lists them). */
  agents?: string[];
  /** Whether Bash runs in the OS sandbox; only when a settings file speaks of it. */
  sandbox_enabled?: boolean;
}

/**
 * Writes a run's events in one format to stdout, as they happen (stream-json is live), in order.
 * Diagnostics never come here. A reader that closes the pipe early (`agent -p … | head`) ends
 * the writing quietly: the run goes on and exits with its own code (see stdout.ts).
 */
export class OutputWriter {
  private pending: Promise<unknown> = Promise.resolve();
  /** @param sessionId the conversation's id, in every event (`session_id`) */
  constructor(
    private readonly format: OutputFormat,
    public sessionId: string = crypto.randomUUID(),
  ) {}

  private write(s: string): void {
    this.pending = this.pending.then(() => writeStdout(s));
  }

  /** Resolves when everything written so far has reached stdout. */
  flush(): Promise<void> {
    return this.pending.then(() => undefined);
  }

  /** Raw text (a built-in command's output). */
  text(s: string): void {
    this.write(s);
  }

  private event(obj: object) {
    this.write(JSON.stringify({ ...obj, session_id: this.sessionId }) + "\n");
  }

  /** stream-json only: `{type:"system", subtype:"init", tools, cwd, model, mcp_servers, session_id}`, first. */
  init(info: InitInfo): void {
    if (this.format === "stream-json") this.event({ type: "system", subtype: "init", ...info });
  }

  /** stream-json only: `{type:"assistant", message}` per model reply (the Messages API message). */
  assistant(reply: AssistantReply): void {
    if (this.format === "stream-json") this.event({ type: "assistant", message: { ...reply, type: "message", role: "assistant" } });
  }

  /** stream-json only: `{type:"user", message}`, the tool_result message sent back to the model. */
  user(message: MessageParam): void {
    if (this.format === "stream-json") this.event({ type: "user", message });
  }

  /** stream-json only: a subagent's task_started, messages (with parent_tool_use_id) and task_notification. */
  subagent(e: SubagentEvent): void {
    if (this.format === "stream-json") this.event(subagentStreamEvent(e));
  }

  /** stream-json only: `{type:"system", subtype:"compact_boundary", compact_metadata: {trigger, pre_tokens}}` (Claude Code's shape). */
  compact(info: CompactInfo): void {
    if (this.format === "stream-json") {
      this.event({ type: "system", subtype: "compact_boundary", compact_metadata: { trigger: info.trigger, pre_tokens: info.preTokens ?? null } });
    }
  }

  /** stream-json only: a system event as it is (background tasks' task_started, task_updated, task_notification). */
  system(event: object): void {
    if (this.format === "stream-json") this.event(event);
  }

  /** The final result. In text format an error prints nothing: its line is on stderr. */
  result(r: Omit<ResultEvent, "type" | "session_id">): void {
    if (this.format === "text") {
      if (!r.is_error) this.write(r.result.endsWith("\n") || r.result === "" ? r.result : r.result + "\n");
      return;
    }
    const event = { type: "result", ...r, session_id: this.sessionId };
    this.write(JSON.stringify(event) + "\n");
  }
}
