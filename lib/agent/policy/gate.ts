/**
 * The loop's permission gate, the same in every mode: PreToolUse hooks first (Claude Code hooks.md,
 * "PreToolUse": a block or `continue: false` ends it; `updatedInput` replaces the input), then the
 * one decision (decide.ts) over the hooks' decision, the settings rules, the flags and the mode;
 * an "ask" goes to the mode's own question, or is refused when the mode has nobody to ask (-p).
 * After a tool ran, PostToolUse or PostToolUseFailure hooks may add text for the model or stop the run.
 */
import type { AgentIdentity, PermissionDecision } from "../loop.ts";
import type { ToolUseBlock } from "../messages.ts";
import type { Tool, ToolOutput } from "../../tools/tool.ts";
import type { RunSettings } from "./run-settings.ts";
import type { ToolRoute } from "../permissions/rules.ts";
import { isAllowed, type PermissionMode } from "../permissions/modes.ts";
import { decide, type CallFacts } from "./decide.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** What a mode supplies to the decision: its mode, what its flags allow, and how it asks. */
export interface ModePermissions {
  /** The permission mode now (host mode may change it); undefined: none was set, every tool runs. */
  mode(): PermissionMode | undefined;
  /** --allowedTools, an "always" answer or a loaded skill's grant allows this call. */
  flagAllows(tool: Tool, input: Record<string, unknown>): boolean;
  /** The mode's question, with what the model reads if the answer is no; absent: nobody can be asked (-p), an ask is a deny. */
  ask?(tool: Tool, input: Record<string, unknown>, call: ToolUseBlock, message: string, agent?: AgentIdentity): Promise<PermissionDecision>;
}

/** The run's pieces the flags' allow needs (AgentRuntime's). */
export interface GrantSource {
  matchesRule(toolName: string, rule: string): boolean;
  skillGrants(): string[];
  skillGrantsCall(toolName: string, input: Record<string, unknown>): boolean;
}

/** True when one of `allowed` (--allowedTools, "always" answers) or a loaded skill's grant allows the call. */
export function flagsAllow(run: GrantSource, allowed: Iterable<string>, tool: Tool, input: Record<string, unknown>): boolean {
  return isAllowed(tool.name, [...allowed, ...run.skillGrants()], (n, r) => run.matchesRule(n, r)) || run.skillGrantsCall(tool.name, input);
}

export interface GateOptions {
  /** The run's settings; absent when no settings file exists (no hooks, no rules). */
  settings?: RunSettings;
  /** Where an MCP tool's API name leads (AgentRuntime.route). */
  route(name: string): ToolRoute | undefined;
  permissions: ModePermissions;
  /** A line for the user (systemMessage, a hook's error), never stdout. */
  notice(line: string): void;
}

export class ToolGate {
  /** A hook's `continue: false`: the reason, once one said so; the loop ends after this step. */
  stopped: string | undefined;
  private readonly pending = new Map<string, string[]>();

  constructor(private readonly opts: GateOptions) {}

  /** The loop's `canUseTool`. */
  readonly canUseTool = async (tool: Tool, given: Record<string, unknown>, call: ToolUseBlock, agent?: AgentIdentity): Promise<PermissionDecision> => {
    const { settings, permissions } = this.opts;
    let input = given;
    let hook: CallFacts["hook"];
    if (settings?.listens("PreToolUse")) {
      const out = await settings.fire("PreToolUse", tool.name, { tool_name: tool.name, tool_input: input, tool_use_id: call.id, ...agentFields(agent) });
      for (const line of out.notices) this.opts.notice(line);
      if (out.stop !== undefined) return this.stop(out.stop);
      if (out.block) return { behavior: "deny", message: out.block };
      if (out.updatedInput) input = out.updatedInput;
      if (out.context.length) this.pending.set(call.id, out.context);
      hook = out.permission;
    }
    const match = settings?.rules.decide(tool.name, input, this.opts.route(tool.name));
    const verdict = decide({
      tool,
      input,
      hook,
      rule: match && { behavior: match.behavior, path: match.rule.path !== undefined },
      flagAllows: permissions.flagAllows(tool, input),
      mode: stricter(permissions.mode(), agent?.permissionMode),
    });
    const updated = input === given ? {} : { updatedInput: input };
    if (verdict.behavior === "allow") return input === given ? true : { behavior: "allow", ...updated };
    if (verdict.behavior === "deny" || !permissions.ask) return { behavior: "deny", message: verdict.message };
    return withInput(await permissions.ask(tool, input, call, verdict.message, agent), updated);
  };

  /** The loop's `afterTool`: PostToolUse (or PostToolUseFailure) hooks, and the context PreToolUse left for this call. */
  readonly afterTool = async (
    call: ToolUseBlock,
    input: Record<string, unknown>,
    given: ToolOutput,
    agent?: AgentIdentity,
  ): Promise<{ context?: string[]; output?: ToolOutput }> => {
    const context = this.pending.get(call.id) ?? [];
    // A search over a folder above a denied one must not show what the Read rules keep from the model.
    const { settings } = this.opts;
    const output = settings && (call.name === "Grep" || call.name === "Glob") ? withoutDenied(given, settings) : given;
    this.pending.delete(call.id);
    const event = output.isError ? "PostToolUseFailure" : "PostToolUse";
    if (settings?.listens(event)) {
      const response = typeof output.content === "string" ? output.content : output.content;
      const fields = output.isError ? { error: textOf(output) } : { tool_response: response };
      const out = await settings.fire(event, call.name, { tool_name: call.name, tool_input: input, tool_use_id: call.id, ...fields, ...agentFields(agent) });
      for (const line of out.notices) this.opts.notice(line);
      if (out.stop !== undefined) this.stop(out.stop);
      if (out.block) context.push(out.block);
      context.push(...out.context);
    }
    return { ...(context.length ? { context } : {}), ...(output !== given ? { output } : {}) };
  };

  /** For the loop's `halted`. */
  readonly halted = (): boolean => this.stopped !== undefined;

  private stop(reason: string): PermissionDecision {
    this.stopped ??= reason;
    return { behavior: "deny", message: `Operation stopped by hook: ${reason}` };
  }
}

/** How much a mode lets run without asking, least first; undefined (no mode) lets everything run. */
const LOOSENESS: PermissionMode[] = ["dontAsk", "default", "acceptEdits", "bypassPermissions"];

/** The run's mode, or a subagent's own when that is stricter: an agent file can tighten, never loosen. */
function stricter(run: PermissionMode | undefined, agent: PermissionMode | undefined): PermissionMode | undefined {
  if (agent === undefined) return run;
  if (run === undefined) return agent;
  return LOOSENESS.indexOf(agent) < LOOSENESS.indexOf(run) ? agent : run;
}

/** Claude Code's fields for a call made inside a subagent; none in the main conversation. */
function agentFields(agent: AgentIdentity | undefined): Record<string, string> {
  return agent ? { agent_id: agent.id, agent_type: agent.type } : {};
}

function withInput(decision: PermissionDecision, updated: { updatedInput?: Record<string, unknown> }): PermissionDecision {
  if (!updated.updatedInput) return decision;
  if (decision === true) return { behavior: "allow", ...updated };
  if (typeof decision === "object" && decision.behavior === "allow") return { behavior: "allow", updatedInput: decision.updatedInput ?? updated.updatedInput };
  return decision;
}

/**
 * A Grep or Glob result without the lines whose path a Read deny rule covers (`path`, `path:N:text`,
 * `path-N-text`, `path:N`), and one line saying how many were left out; the same output when none was.
 */
function withoutDenied(output: ToolOutput, settings: RunSettings): ToolOutput {
  if (output.isError || typeof output.content !== "string") return output;
  const cwd = settings.cwd;
  const denied = new Map<string, boolean>();
  const isDenied = (path: string) => {
    let d = denied.get(path);
    if (d === undefined) denied.set(path, (d = settings.rules.readDenied(resolve(cwd, path)) !== undefined));
    return d;
  };
  let dropped = 0;
  const kept = output.content.split("\n").filter((line) => {
    const path = pathOf(line, cwd);
    if (path === undefined || !isDenied(path)) return true;
    dropped++;
    return false;
  });
  if (!dropped) return output;
  return { ...output, content: `${kept.join("\n")}\n(${dropped} result line${dropped === 1 ? "" : "s"} in paths denied by your permission settings left out)` };
}

/** The file a search result line names: the whole line, or its part before a `:` or `-` that names an existing file. */
function pathOf(line: string, cwd: string): string | undefined {
  if (!line || line === "--") return undefined;
  if (existsSync(resolve(cwd, line))) return line;
  for (let i = 1; i < line.length; i++) {
    if ((line[i] === ":" || line[i] === "-") && existsSync(resolve(cwd, line.slice(0, i)))) return line.slice(0, i);
  }
  return undefined;
}

function textOf(output: ToolOutput): string {
  if (typeof output.content === "string") return output.content;
  return output.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
