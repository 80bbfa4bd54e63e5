/**
 * The loop's permission gate, the same in every mode: PreToolUse hooks first (Claude Code hooks.md,
 * "PreToolUse": a block or `continue: false` ends it; `updatedInput` replaces the input), then the
 * one decision (decide.ts) over the hooks' decision, the settings rules, the flags and the mode;
 * an "ask" goes to the mode's own question, or is refused when the mode has nobody to ask (-p).
 * After a tool ran, PostToolUse or PostToolUseFailure hooks may add text for the model or stop the run.
 */
import type { AgentIdentity, LoopOptions, PermissionDecision } from "../loop/loop-options.ts";
import type { ToolUseBlock } from "../messages.ts";
import type { Tool, ToolOutput } from "../../tools/tool.ts";
import type { RunSettings } from "./run-settings.ts";
import type { ToolRoute } from "../permissions/rules.ts";
import { isAllowed, type PermissionMode } from "../permissions/modes.ts";
import { allowedByDomainRule } from "../../tools/web/domain-rule.ts";
import { decide, type CallFacts, type SandboxFacts } from "./decide.ts";
import { loadBashGrammar } from "../permissions/bash/grammar.ts";
import { planCheck } from "./plan-mode.ts";
import { planFilePath } from "../plan/plan-file.ts";

/** What a mode supplies to the decision: its mode, what its flags allow, and how it asks. */
export interface ModePermissions {
  /** The permission mode now (host mode may change it); undefined: none was set, every tool runs. */
  mode(): PermissionMode | undefined;
  /** Anything the mode must load before `flagAllows` can answer for this call (the session's saved Bash rules need the shell grammar). */
  prepare?(tool: Tool): Promise<void>;
  /** --allowedTools, an "always" answer or a loaded skill's grant allows this call. */
  flagAllows(tool: Tool, input: Record<string, unknown>): boolean;
  /** The rules behind flagAllows (--allowedTools, "always" answers, a skill's grants): a scoped Bash rule among them needs the shell grammar. */
  flagRules?(): Iterable<string>;
  /** The mode's question, with what the model reads if the answer is no; absent: nobody can be asked (-p), an ask is a deny. */
  ask?(
    tool: Tool,
    input: Record<string, unknown>,
    call: ToolUseBlock,
    message: string,
    /**
     * `forced`: an ask rule or hook asked, not the mode (no "always"); `agent`: a subagent's call;
     * `reason`: a running call asks again for this reason, which the person must see (ToolContext.confirm).
     */
    about?: { forced?: boolean; agent?: AgentIdentity; reason?: string },
  ): Promise<PermissionDecision>;
}

/** The run's pieces the flags' allow needs (AgentRuntime's). */
export interface GrantSource {
  matchesRule(toolName: string, rule: string): boolean;
  skillGrants(): string[];
  skillGrantsCall(toolName: string, input: Record<string, unknown>): boolean;
}

/** True when one of `rules` is a Bash rule with a specifier (`Bash(echo:*)`), which matches through the shell grammar. */
export function hasScopedBash(rules: Iterable<string>): boolean {
  for (const rule of rules) if (/^\s*Bash\s*\(/.test(rule)) return true;
  return false;
}

/** True when one of `allowed` (--allowedTools, "always" answers) or a loaded skill's grant allows the call. */
export function flagsAllow(run: GrantSource, allowed: Iterable<string>, tool: Tool, input: Record<string, unknown>): boolean {
  const rules = [...allowed];
  return (
    isAllowed(tool.name, [...rules, ...run.skillGrants()], (n, r) => run.matchesRule(n, r)) ||
    run.skillGrantsCall(tool.name, input) ||
    // WebFetch(domain:…) allows by the call's host, which a tool name alone cannot say.
    allowedByDomainRule(rules, tool.name, input)
  );
}

export interface GateOptions {
  /** The run's settings; absent when no settings file exists (no hooks, no rules). */
  settings?: RunSettings;
  /** Where an MCP tool's API name leads (AgentRuntime.route). */
  route(name: string): ToolRoute | undefined;
  permissions: ModePermissions;
  /** The directory the next Bash call runs in (a `cd` in an earlier call stays): Bash's relative paths are its. */
  shellCwd?(): string;
  /** The run's working directory (the process's when absent): Write's and Edit's relative paths are its (plan mode's plan file check). */
  cwd?: string;
  /** A line for the user (systemMessage, a hook's error), never stdout. */
  notice(line: string): void;
  /** The OS sandbox's facts for a call (lib/agent/sandboxing), when the run has a sandbox. */
  sandbox?(toolName: string, input: Record<string, unknown>): SandboxFacts | undefined;
}

export class ToolGate {
  /** A hook's `continue: false`: the reason, once one said so; the loop ends after this step. */
  stopped: string | undefined;
  private readonly pending = new Map<string, string[]>();

  constructor(private readonly opts: GateOptions) {
    const { ask } = opts.permissions;
    this.confirmCall =
      ask &&
      (async (tool, input, call, reason, agent) => {
        const decision = await ask(tool, input, call, reason, { forced: true, agent, reason });
        return decision === true || (typeof decision === "object" && decision.behavior === "allow");
      });
  }

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
    const mode = agentMode(permissions.mode(), agent);
    // A tool that runs a shell command (Monitor) is judged as the Bash call of that command.
    const judged = tool.asBash ? { tool: { ...tool, name: "Bash" }, input: { command: input.command } } : { tool, input };
    // Plan mode's read-only classifier reads Bash through the shell grammar too.
    if (judged.tool.name === "Bash" && (mode === "plan" || settings?.rules.parsesBash || hasScopedBash(permissions.flagRules?.() ?? []))) await this.grammar();
    await permissions.prepare?.(judged.tool);
    // A subagent's inline server is not in the run's routes: its tool carries its own.
    const route = this.opts.route(judged.tool.name) ?? judged.tool.mcpRoute;
    const match = settings?.rules.decide(judged.tool.name, judged.input, route, this.opts.shellCwd?.());
    const verdict = decide({
      tool: judged.tool,
      input: judged.input,
      hook,
      rule: match && { behavior: match.behavior, path: match.rule.path !== undefined },
      flagAllows: permissions.flagAllows(judged.tool, judged.input),
      mode,
      plan:
        mode === "plan"
          ? planCheck(judged.tool, judged.input, {
              mcp: route !== undefined,
              cwd: this.opts.cwd ?? process.cwd(),
              shellCwd: this.opts.shellCwd?.(),
              planFile: planFilePath(),
            })
          : undefined,
      sandbox: this.opts.sandbox?.(judged.tool.name, judged.input),
    });
    const updated = input === given ? {} : { updatedInput: input };
    if (verdict.behavior === "allow") return input === given ? true : { behavior: "allow", ...updated };
    if (verdict.behavior === "deny" || !permissions.ask) return { behavior: "deny", message: verdict.message };
    return withInput(await permissions.ask(tool, input, call, verdict.message, { forced: verdict.forced === true, agent }), updated);
  };

  /**
   * The loop's `confirmCall`: the mode's question again, with the reason shown and no "always";
   * absent when the mode has nobody to ask (-p), so the tool refuses on its own terms.
   */
  readonly confirmCall: LoopOptions["confirmCall"];

  /** The loop's `afterTool`: PostToolUse (or PostToolUseFailure) hooks, and the context PreToolUse left for this call. */
  readonly afterTool = async (
    call: ToolUseBlock,
    input: Record<string, unknown>,
    given: ToolOutput,
    agent?: AgentIdentity,
  ): Promise<{ context?: string[]; output?: ToolOutput }> => {
    const context = this.pending.get(call.id) ?? [];
    // Grep and Glob leave what the Read rules deny out of the search itself (ToolContext.excluded).
    const { settings } = this.opts;
    const output = given;
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

/** How much a mode lets run without asking, least first; undefined (no mode) lets everything run. */
const LOOSENESS: PermissionMode[] = ["dontAsk", "default", "acceptEdits", "bypassPermissions"];

/**
 * The mode a call runs under: the run's, or its subagent's definition's where that is stricter, or
 * as written where the user trusted the definition's file (the settings trust rules). Nothing
 * loosens plan mode.
 */
function agentMode(run: PermissionMode | undefined, agent: AgentIdentity | undefined): PermissionMode | undefined {
  if (agent?.modeTrusted && agent.permissionMode && run !== "plan") return agent.permissionMode;
  return stricter(run, agent?.permissionMode);
}

/** The run's mode, or a subagent's own when that is stricter: plan mode on either side holds. */
function stricter(run: PermissionMode | undefined, agent: PermissionMode | undefined): PermissionMode | undefined {
  if (run === "plan" || agent === "plan") return "plan";
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

function textOf(output: ToolOutput): string {
  if (typeof output.content === "string") return output.content;
  return output.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
