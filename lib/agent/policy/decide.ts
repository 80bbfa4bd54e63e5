/**
 * The one permission decision for a tool call, in every mode (Claude Code permissions.md, "How
 * permissions interact"; permission-modes.md): the PreToolUse hooks' decision, the settings rules,
 * the flags (--allowedTools, "always" answers, a loaded skill's grants) and the permission mode give
 * allow, deny with a reason, or ask. A deny from any source beats an ask, and an ask beats an allow;
 * plan mode's refusal (plan-mode.ts) comes right after the denies, before any ask or allow:
 * a hook's allow and the flags skip only the mode's question, never a deny or ask rule. Pure: the
 * modes supply only how they ask (gate.ts), and a mode with nobody to ask (-p) turns ask into deny.
 * The OS sandbox adds two facts for Bash: leaving it (`dangerouslyDisableSandbox`) always asks, and
 * `autoAllowBashIfSandboxed` skips only the mode's question for a sandboxed call.
 */
import type { Tool } from "../../tools/tool.ts";
import type { Behavior } from "../settings/merge.ts";
import { needsPermission, type PermissionMode } from "../permissions/modes.ts";
import type { PlanCheck } from "./plan-mode.ts";
import { userToolVerdict } from "./user-tools.ts";

/** What the policy says of one call; `message` is what the model reads when the call does not run. */
export type Verdict =
  | { behavior: "allow" }
  | { behavior: "deny"; message: string }
  /** `forced`: an ask rule or hook asked, not the mode; such a question offers no "always". */
  | { behavior: "ask"; message: string; forced?: boolean };

/** Everything the decision depends on, for one call. */
export interface CallFacts {
  tool: Pick<Tool, "name" | "asksPermission">;
  input: Record<string, unknown>;
  /** The PreToolUse hooks' `permissionDecision`, when one gave it. */
  hook?: { decision: "allow" | "deny" | "ask"; reason?: string };
  /** The first settings rule list that matched (deny, then ask, then allow); `path` when a path rule matched. */
  rule?: { behavior: Behavior; path: boolean };
  /** --allowedTools, an "always" answer or a loaded skill's grant names this call. */
  flagAllows: boolean;
  /** The permission mode; undefined when none was set, so every tool runs (-p and host mode without --permission-mode). */
  mode: PermissionMode | undefined;
  /** Plan mode's answer for this call (plan-mode.ts), when the mode is plan; absent then, the call is refused. */
  plan?: PlanCheck;
  /** A Bash call's OS sandbox facts (lib/agent/sandboxing), when the run has a sandbox. */
  sandbox?: SandboxFacts;
}

/** What the sandbox adds to a Bash call's decision. */
export interface SandboxFacts {
  /** `dangerouslyDisableSandbox` honoured: the call would run outside, so it is always asked about (refused where nobody is asked). */
  escape: boolean;
  /** It runs sandboxed and `autoAllowBashIfSandboxed` is on: the mode's question is skipped, rules still apply. */
  autoAllow: boolean;
}

/** Our words for a call that asks to leave the sandbox. */
export const escapeText = "This command asks to run outside the sandbox (dangerouslyDisableSandbox); that needs the user's approval.";

/** Claude Code's texts for the model (verified with 2.1.328 in -p). */
export const denyText = (tool: Pick<Tool, "name">, input: Record<string, unknown>, path: boolean): string =>
  path
    ? "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>"
    : tool.name === "Bash"
      ? `Permission to use Bash with command ${String(input.command ?? "")} has been denied.`
      : `Permission to use ${tool.name} has been denied.`;
export const askText = (name: string) => `Claude requested permissions to use ${name}, but you haven't granted it yet.`;
/** Our words for a call the mode would ask about when nobody can be asked. */
export const modeText = (name: string, mode: PermissionMode | undefined) =>
  `Permission to use ${name} was not granted (--permission-mode ${mode ?? "default"}).`;

/** The decision: deny (hook, rule) → ask (hook, rule) → allow (hook, rule, flags) → the mode. */
export function decide(f: CallFacts): Verdict {
  const { tool, hook, rule, mode } = f;
  if (hook?.decision === "deny") return { behavior: "deny", message: `PreToolUse:${tool.name} hook error: ${hook.reason ?? "denied"}` };
  if (rule?.behavior === "deny") return { behavior: "deny", message: denyText(tool, f.input, rule.path) };
  // A call that is itself a question for the user (ExitPlanMode, AskUserQuestion) always asks.
  const question = userToolVerdict(tool.name, mode);
  if (question) return question;
  // Plan mode refuses what it does not allow past every allow (a hook's, a rule's, the flags'): nobody loosens it.
  if (mode === "plan" && !f.plan?.allowed)
    return { behavior: "deny", message: f.plan?.allowed === false ? f.plan.message : `Plan mode is on: ${tool.name} was not run.` };
  // An ask rule or hook asks even in bypassPermissions, past the flags; dontAsk never asks.
  const ask = hook?.decision === "ask" ? (hook.reason ?? askText(tool.name)) : rule?.behavior === "ask" ? askText(tool.name) : undefined;
  if (ask !== undefined) return mode === "dontAsk" ? { behavior: "deny", message: ask } : { behavior: "ask", message: ask, forced: true };
  // Leaving the sandbox is always a question, whatever allows the command itself.
  if (f.sandbox?.escape) return mode === "dontAsk" ? { behavior: "deny", message: escapeText } : { behavior: "ask", message: escapeText, forced: true };
  if (hook?.decision === "allow" || rule?.behavior === "allow" || f.flagAllows) return { behavior: "allow" };
  if (f.sandbox?.autoAllow) return { behavior: "allow" };
  if (mode === undefined || !needsPermission(tool, mode)) return { behavior: "allow" };
  return mode === "dontAsk" ? { behavior: "deny", message: modeText(tool.name, mode) } : { behavior: "ask", message: modeText(tool.name, mode) };
}
