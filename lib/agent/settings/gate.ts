/**
 * The loop's permission gate with settings (Claude Code permissions.md, "How permissions
 * interact"; hooks.md, "PreToolUse"/"PostToolUse"): PreToolUse hooks first (a deny or exit 2 ends
 * it; `updatedInput` replaces the input; `allow` skips the mode's question), then the rules (deny,
 * ask, allow; a hook's allow never beats a deny or ask rule), then the mode's own question. With
 * nobody to ask (-p), an ask refuses in Claude Code's words. After a tool ran, PostToolUse or
 * PostToolUseFailure hooks may add text for the model or stop the run.
 */
import type { PermissionDecision } from "../loop.ts";
import type { ToolUseBlock } from "../messages.ts";
import type { Tool, ToolOutput } from "../../tools/tool.ts";
import type { RunSettings } from "./engine.ts";
import type { ToolRoute } from "./rules.ts";
import { loadBashGrammar } from "../permissions/bash/grammar.ts";

export interface GateOptions {
  settings: RunSettings;
  /** Where an MCP tool's API name leads (AgentRuntime.route). */
  route(name: string): ToolRoute | undefined;
  /**
   * The mode's own answer for a call no rule or hook allowed; `forced` when a rule or hook said
   * "ask", so the mode must ask even where it would not. Absent: nobody can be asked (-p), and
   * calls run unless a rule or hook says otherwise.
   */
  ask?(tool: Tool, input: Record<string, unknown>, call: ToolUseBlock, forced: boolean): Promise<PermissionDecision>;
  /** -p's --permission-mode check for calls no rule allowed (the existing permissionDenier). */
  fallback?(tool: Tool, input: Record<string, unknown>, call: ToolUseBlock): Promise<PermissionDecision>;
  /** The directory the next Bash call runs in (a `cd` in an earlier call stays): Bash's relative paths are its. */
  shellCwd?(): string;
  /** A line for the user (systemMessage, a hook's error), never stdout. */
  notice(line: string): void;
}

/** Claude Code's texts for the model (verified with 2.1.328 in -p). */
export const denyText = (tool: Tool, input: Record<string, unknown>, path: boolean): string =>
  path
    ? "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>"
    : tool.name === "Bash"
      ? `Permission to use Bash with command ${String(input.command ?? "")} has been denied.`
      : `Permission to use ${tool.name} has been denied.`;
export const askText = (name: string) => `Claude requested permissions to use ${name}, but you haven't granted it yet.`;

export class ToolGate {
  /** A hook's `continue: false`: the reason, once one said so; the loop ends after this step. */
  stopped: string | undefined;
  private readonly pending = new Map<string, string[]>();

  constructor(private readonly opts: GateOptions) {}

  /** The loop's `canUseTool`. */
  readonly canUseTool = async (tool: Tool, given: Record<string, unknown>, call: ToolUseBlock): Promise<PermissionDecision> => {
    const { settings } = this.opts;
    let input = given;
    let hookAllows = false;
    let askWhy: string | undefined;
    if (settings.listens("PreToolUse")) {
      const out = await settings.fire("PreToolUse", tool.name, { tool_name: tool.name, tool_input: input, tool_use_id: call.id });
      for (const line of out.notices) this.opts.notice(line);
      if (out.stop !== undefined) return this.stop(out.stop);
      if (out.block) return { behavior: "deny", message: out.block };
      if (out.permission?.decision === "deny") return { behavior: "deny", message: `PreToolUse:${tool.name} hook error: ${out.permission.reason ?? "denied"}` };
      if (out.updatedInput) input = out.updatedInput;
      if (out.context.length) this.pending.set(call.id, out.context);
      if (out.permission?.decision === "ask") askWhy = out.permission.reason ?? askText(tool.name);
      hookAllows = out.permission?.decision === "allow";
    }
    if (tool.name === "Bash" && settings.rules.parsesBash) await this.grammar();
    const match = settings.rules.decide(tool.name, input, this.opts.route(tool.name), this.opts.shellCwd?.());
    if (match?.behavior === "deny") return { behavior: "deny", message: denyText(tool, input, match.rule.path !== undefined) };
    if (match?.behavior === "ask") askWhy = askText(tool.name);
    const updated = input === given ? {} : { updatedInput: input };
    if (askWhy !== undefined) {
      if (!this.opts.ask) return { behavior: "deny", message: askWhy };
      return withInput(await this.opts.ask(tool, input, call, true), updated);
    }
    if (hookAllows || match?.behavior === "allow") return { behavior: "allow", ...updated };
    const mode = this.opts.ask ?? this.opts.fallback;
    return withInput(mode ? await mode(tool, input, call, false) : true, updated);
  };

  /** The loop's `afterTool`: PostToolUse (or PostToolUseFailure) hooks, and the context PreToolUse left for this call. */
  readonly afterTool = async (call: ToolUseBlock, input: Record<string, unknown>, given: ToolOutput): Promise<{ context?: string[]; output?: ToolOutput }> => {
    const context = this.pending.get(call.id) ?? [];
    // Grep and Glob leave what the Read rules deny out of the search itself (ToolContext.excluded).
    const output = given;
    this.pending.delete(call.id);
    const { settings } = this.opts;
    const event = output.isError ? "PostToolUseFailure" : "PostToolUse";
    if (settings.listens(event)) {
      const response = typeof output.content === "string" ? output.content : output.content;
      const fields = output.isError ? { error: textOf(output) } : { tool_response: response };
      const out = await settings.fire(event, call.name, { tool_name: call.name, tool_input: input, tool_use_id: call.id, ...fields });
      for (const line of out.notices) this.opts.notice(line);
      if (out.stop !== undefined) this.stop(out.stop);
      if (out.block) context.push(out.block);
      context.push(...out.context);
    }
    return { ...(context.length ? { context } : {}), ...(output !== given ? { output } : {}) };
  };

  /** Loads the shell grammar for Bash rules once; a failure is one notice, and Bash rules then fail closed (rules.ts). */
  private async grammar(): Promise<void> {
    try {
      await loadBashGrammar();
    } catch (err) {
      if (!this.grammarFailed)
        this.opts.notice(`cannot load the shell grammar for Bash rules (${(err as Error).message}); no allow rule matches a Bash command`);
      this.grammarFailed = true;
    }
  }

  private grammarFailed = false;

  /** For the loop's `halted`. */
  readonly halted = (): boolean => this.stopped !== undefined;

  private stop(reason: string): PermissionDecision {
    this.stopped ??= reason;
    return { behavior: "deny", message: `Operation stopped by hook: ${reason}` };
  }
}

function withInput(decision: PermissionDecision, updated: { updatedInput?: Record<string, unknown> }): PermissionDecision {
  if (!updated.updatedInput) return decision;
  if (decision === true) return { behavior: "allow", ...updated };
  if (typeof decision === "object" && decision.behavior === "allow") return { behavior: "allow", updatedInput: decision.updatedInput ?? updated.updatedInput };
  return decision;
}

function textOf(output: ToolOutput): string {
  if (typeof output.content === "string") return output.content;
  return output.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
