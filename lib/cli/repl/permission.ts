/**
 * Permission prompts of the interactive session, as in Claude Code: when the one decision
 * (lib/agent/policy/decide.ts) says "ask", the call shows what it will do (permission-preview.ts)
 * and asks `Allow <title>? [y]es / [n]o / [a]lways: <what is kept>` (always.ts: a saved Bash prefix
 * or MCP rule, or acceptEdits; none for a compound command). Whether to ask at all (the mode,
 * --allowedTools, an earlier "always", a settings rule) is the policy's, not this file's.
 * `n` may carry a reason for the model (`n use the other file`). Print mode never asks.
 */
import { allowedByDomainRule } from "../../tools/web/domain-rule.ts";
import type { Tool } from "../../tools/tool.ts";
import type { PermissionDecision } from "../../agent/loop/loop-options.ts";
import type { Preview } from "../ui/permission-preview.ts";
import { shortArgs } from "../ui/tool-lines.ts";
import { preview as previewText } from "../../shared/values.ts";
import { terminalText } from "../../shared/terminal-text.ts";
import type { AlwaysStore } from "./always.ts";
import { isAllowed, type PermissionMode, type RuleMatcher } from "../../agent/permissions/modes.ts";
import { type ModePermissions, ToolGate } from "../../agent/policy/gate.ts";

/**
 * The session's permission mode: --dangerously-skip-permissions, else --permission-mode, else the
 * settings' `permissions.defaultMode` (a person is there to consent to a repository's, consent.ts), else default.
 */
export function sessionMode(args: { skipPermissions: boolean; permissionMode?: PermissionMode }, settings?: { defaultMode?: PermissionMode }): PermissionMode {
  return args.skipPermissions ? "bypassPermissions" : (args.permissionMode ?? settings?.defaultMode ?? "default");
}

export type Answer = "yes" | "no" | "always";

/**
 * `y`/`yes`, `n`/`no`, `a`/`always` (any case); `n` or `no` followed by a sentence (after a space,
 * a comma or a colon) is a refusal with that reason. Undefined for anything else.
 */
export function parseAnswer(text: string): { answer: Answer; reason?: string } | undefined {
  const t = text.trim();
  const lower = t.toLowerCase();
  if (lower === "y" || lower === "yes") return { answer: "yes" };
  if (lower === "a" || lower === "always") return { answer: "always" };
  const refusal = /^no?(?:$|[\s,:;.!-]+(.*))$/is.exec(t);
  if (refusal) return refusal[1]?.trim() ? { answer: "no", reason: refusal[1].trim() } : { answer: "no" };
  return undefined;
}

export interface PermissionOptions {
  cwd: string;
  /** --allowedTools; "always" answers are added to it. */
  allowed: Set<string>;
  /** The turn's signal: once aborted, queued questions are not asked and the call is refused. */
  signal: AbortSignal;
  /** Shows `body` and a question; resolves with the typed line, or null when the user interrupted. */
  ask(question: string, body: string[]): Promise<string | null>;
  /** What the call will do (the title and lines shown above the question); `Name(args)` alone by default. */
  preview?(tool: Tool, input: Record<string, unknown>): Preview;
  /** Called when the user pressed Ctrl-C at the question: the turn is interrupted. */
  onInterrupt(): void;
  /** What `[a]lways` keeps (always.ts); absent: it allows the tool for the session. */
  always?: AlwaysStore;
}

/** What the session's part in the decision needs besides its question. */
export interface SessionPermissionOptions extends PermissionOptions {
  /** The session's mode (sessionMode), or how to read it as Shift+Tab changes it; default when absent. */
  mode?: PermissionMode | (() => PermissionMode);
  /** The session's own dialog for a call that is a question for the user (ExitPlanMode, AskUserQuestion); absent: the usual question. */
  userTool?(tool: Tool, input: Record<string, unknown>): Promise<PermissionDecision> | undefined;
  /** --dangerously-skip-permissions: bypassPermissions whatever `mode` says. */
  skipAll?: boolean;
  /** How a rule names a tool (AgentRuntime.matchesRule). */
  matches: RuleMatcher;
  /** Tools a skill loaded in this turn lets run without asking (its allowed-tools). */
  granted?(): string[];
  /** Every rule of this turn's skills, scoped ones included (for the gate's shell grammar). */
  grantRules?(): string[];
  /** Whether a scoped allowed-tools rule of such a skill (`Bash(git:*)`) lets this call run. */
  grantsCall?(tool: Tool, input: Record<string, unknown>): boolean;
}

/** The session's part in the permission decision (policy/gate.ts): its mode, its flags and "always" answers, its question. */
export function sessionPermissions(opts: SessionPermissionOptions): ModePermissions {
  const question = permissionQuestion(opts);
  return {
    mode: () => (opts.skipAll ? "bypassPermissions" : ((typeof opts.mode === "function" ? opts.mode() : opts.mode) ?? "default")),
    flagAllows: (tool, input) =>
      isAllowed(tool.name, [...opts.allowed, ...(opts.granted?.() ?? [])], opts.matches) ||
      opts.grantsCall?.(tool, input) === true ||
      allowedByDomainRule(opts.allowed, tool.name, input) ||
      opts.always?.allows(tool, input) === true,
    flagRules: () => [...opts.allowed, ...(opts.grantRules?.() ?? [])],
    ask: (tool, input, _call, _message, about) =>
      opts.userTool?.(tool, input) ?? question(tool, input, about?.forced === true, about?.agent?.type, about?.reason),
    // A saved Bash rule matches on the shell grammar: have it loaded before flagAllows asks the store.
    prepare: async (tool) => {
      await opts.always?.ready(tool);
    },
  };
}

/** The session's whole decision for a call when no settings file exists: the gate over sessionPermissions. */
export function permissionHook(opts: SessionPermissionOptions): (tool: Tool, input: Record<string, unknown>) => Promise<PermissionDecision> {
  const gate = new ToolGate({ route: () => undefined, permissions: sessionPermissions(opts), notice: () => undefined });
  return (tool, input) => gate.canUseTool(tool, input, { type: "tool_use", id: "", name: tool.name, input });
}

/**
 * The session's question for one turn: true to run; false, or a deny carrying the user's reason, to refuse.
 * Questions are asked one at a time (concurrent read-only MCP calls may both need one); an
 * unclear answer asks again; an interrupt refuses and interrupts the turn.
 */
export function permissionQuestion(
  opts: PermissionOptions,
): (tool: Tool, input: Record<string, unknown>, forced?: boolean, agentType?: string, reason?: string) => Promise<PermissionDecision> {
  let queue: Promise<unknown> = Promise.resolve();
  // `forced`: an ask rule or hook asked, not the mode: no always is offered, the call asks each time.
  const askOnce = async (tool: Tool, input: Record<string, unknown>, forced: boolean, agentType?: string, reason?: string): Promise<PermissionDecision> => {
    if (opts.signal.aborted) return false;
    const preview = opts.preview?.(tool, input) ?? { title: `${tool.name}(${shortArgs(tool.name, input, opts.cwd, tool)})`, body: [] };
    // The offer reads a Bash command through the shell grammar, loaded here once.
    await opts.always?.ready(tool, true);
    const offer = forced ? undefined : opts.always?.offer(tool, input);
    // A compound or wrapped command, or one that writes through a redirect, gets no always: no saved prefix could vouch for it.
    const third = forced ? "" : !opts.always ? " / [a]lways for this tool" : offer ? ` / ${opts.always.label(offer)}` : "";
    // A subagent's call says whose it is: the user may trust the parent and not a project's agent.
    const who = agentType ? `Agent ${previewText(agentType, 40)} asks: ` : "";
    const question = `${who}Allow ${preview.title}? [y]es / [n]o${third} `;
    // A running call's second question says why it asks again (a private address WebFetch found).
    let body = reason ? [terminalText(reason, { oneLine: true }), ...preview.body] : preview.body;
    for (;;) {
      const line = await opts.ask(question, body);
      body = [];
      if (line === null) {
        opts.onInterrupt();
        return false;
      }
      const parsed = parseAnswer(line);
      if (parsed?.answer === "always" && (forced || (opts.always && !offer))) continue;
      if (parsed?.answer === "always") {
        if (offer) opts.always!.keep(offer, opts.allowed);
        else opts.allowed.add(tool.name);
      }
      if (!parsed) continue;
      if (parsed.answer !== "no") return true;
      return parsed.reason ? { behavior: "deny", message: `The user refused to run ${tool.name}. They said: ${parsed.reason}` } : false;
    }
  };
  return (tool, input, forced = false, agentType, reason) => {
    const turn = queue.then(() => askOnce(tool, input, forced, agentType, reason));
    queue = turn.catch(() => undefined);
    return turn;
  };
}
