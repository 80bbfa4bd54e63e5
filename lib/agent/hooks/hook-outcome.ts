/**
 * What hook runs mean (Claude Code hooks.md, "Hook output"): exit 0 reads JSON from stdout (plain
 * stdout is context for UserPromptSubmit and SessionStart only); exit 2 blocks with stderr as the
 * message; any other exit is a non-blocking error. JSON: `continue:false` + `stopReason`,
 * `suppressOutput`, `systemMessage`, `decision:"block"` + `reason`, `hookSpecificOutput`
 * (`permissionDecision` allow|deny|ask + `permissionDecisionReason` + `updatedInput`,
 * `additionalContext`), and PreToolUse's deprecated `decision: "approve"|"block"`. The texts the
 * model reads are Claude Code's, verified with 2.1.328.
 */
import { terminalText } from "../../shared/terminal-text.ts";
import type { HookEvent, HookRun } from "./hooks.ts";

export interface HookOutcome {
  /** `continue: false`: the run ends after this step; the reason is for the user. */
  stop?: string;
  /** Exit 2 or `decision: "block"`: the text for the model (or the user, for UserPromptSubmit). */
  block?: string;
  /** PreToolUse's answer, the strictest of all hooks (deny > ask > allow). */
  permission?: { decision: "allow" | "deny" | "ask"; reason?: string };
  updatedInput?: Record<string, unknown>;
  /** Texts for the model, worded as Claude Code words them. */
  context: string[];
  /** Lines for the user (systemMessage, non-blocking errors), never for stdout. */
  notices: string[];
}

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

/** `PreToolUse:Bash` for tool events, `SessionStart:startup` for a session start, else the event name. */
export function hookLabel(event: HookEvent, query?: string): string {
  return query && (event.includes("Tool") || event === "SessionStart") ? `${event}:${query}` : event;
}

/** Folds every run of one event into one outcome. */
export function hookOutcome(event: HookEvent, query: string | undefined, runs: HookRun[]): HookOutcome {
  const out: HookOutcome = { context: [], notices: [] };
  const label = hookLabel(event, query);
  const blocks: string[] = [];
  for (const run of runs) {
    const cmd = run.hook.command;
    if (run.timedOut) {
      out.notices.push(`${label} hook [${cmd}] timed out after ${run.hook.timeout ?? "its default"} s; ignored`);
      continue;
    }
    if (run.code === 2) {
      blocks.push(blockText(event, label, cmd, `[${cmd}]: ${run.stderr}`));
      continue;
    }
    if (run.code !== 0) {
      const detail = run.stderr.trim().split("\n")[0] ?? "";
      out.notices.push(`${label} hook [${cmd}] failed with exit code ${run.code ?? "(none)"}${detail ? `: ${detail}` : ""}`);
      continue;
    }
    const text = run.stdout.trim();
    if (text.startsWith("{")) {
      let json: Record<string, unknown> | undefined;
      try {
        const parsed = JSON.parse(text);
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) json = parsed;
      } catch {
        // Not JSON after all: treated as plain output below.
      }
      if (json) {
        readJson(event, label, cmd, json, out, blocks);
        continue;
      }
      if (run.stdoutCut && event === "PreToolUse") {
        // Its answer may have been a deny: fail closed.
        const reason = `${label} hook [${cmd}] printed more than the output cap and its answer no longer parses; the call is denied`;
        out.permission = { decision: "deny", reason };
        out.notices.push(reason);
        continue;
      }
      out.notices.push(`${label} hook [${cmd}] printed output that is not valid JSON; ignored`);
      continue;
    }
    if (text && event === "UserPromptSubmit") out.context.push(`UserPromptSubmit hook success: ${text}`);
    if (text && event === "SessionStart") out.context.push(`${label} hook success: ${text}`);
  }
  if (blocks.length) out.block = blocks.join("\n");
  // A hook's text for the user goes to a terminal: no code of its own, not even a colour (a conceal
  // code would hide what follows it), whichever screen or stream shows it.
  out.notices = out.notices.map((line) => terminalText(line));
  return out;
}

function blockText(event: HookEvent, label: string, cmd: string, reason: string): string {
  if (event === "PreToolUse") return `${label} hook error: ${reason}`;
  if (event === "PostToolUse" || event === "PostToolUseFailure") return `${label} hook blocking error from command: "${cmd}": ${reason}`;
  return reason;
}

function readJson(event: HookEvent, label: string, cmd: string, json: Record<string, unknown>, out: HookOutcome, blocks: string[]): void {
  if (json.continue === false) out.stop ??= typeof json.stopReason === "string" ? json.stopReason : "";
  if (typeof json.systemMessage === "string" && json.systemMessage) out.notices.push(json.systemMessage);
  const specific = (typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput) || {};
  const { permissionDecision, permissionDecisionReason, updatedInput, additionalContext } = specific as Record<string, unknown>;
  const reason = typeof json.reason === "string" ? json.reason : "";
  if (event === "PreToolUse") {
    // The deprecated top-level form: approve = allow, block = deny.
    const legacy = json.decision === "approve" ? "allow" : json.decision === "block" ? "deny" : undefined;
    const decision = typeof permissionDecision === "string" && permissionDecision in RANK ? (permissionDecision as keyof typeof RANK) : legacy;
    const why = typeof permissionDecisionReason === "string" ? permissionDecisionReason : reason;
    if (decision && (!out.permission || RANK[decision] > RANK[out.permission.decision])) out.permission = { decision, reason: why || undefined };
    if (updatedInput && typeof updatedInput === "object" && !Array.isArray(updatedInput)) out.updatedInput = updatedInput as Record<string, unknown>;
  } else if (json.decision === "block") {
    blocks.push(blockText(event, label, cmd, reason));
  }
  if (typeof additionalContext === "string" && additionalContext) out.context.push(`${label} hook additional context: ${additionalContext}`);
}
