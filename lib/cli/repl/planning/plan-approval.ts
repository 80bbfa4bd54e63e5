/**
 * The session's plan approval, the permission question of an ExitPlanMode call: the plan file is
 * shown rendered as Markdown (after the one sanitizer, terminal-text.ts: a plan is the model's
 * text), and the user chooses to start with edits accepted, to start asking before edits
 * (default mode), or to keep planning, with feedback for the model. Starting switches the
 * session's mode (mode-cycle.ts) at once, for the rest of the turn too.
 */
import type { PermissionDecision } from "../../../agent/loop/loop-options.ts";
import type { Style } from "../../ui/style.ts";
import { renderMarkdown } from "../../ui/markdown.ts";
import { terminalText } from "../../../shared/terminal-text.ts";
import { readPlan } from "../../../tools/plan/exit-plan-mode.ts";
import type { SessionMode } from "./mode-cycle.ts";

export interface PlanApprovalOptions {
  planFile: string;
  modes: SessionMode;
  style: Style;
  columns: number;
  /** Shows `body` and asks; the typed line, or null on Esc / Ctrl-C. */
  ask(question: string, body: string[]): Promise<string | null>;
  /** Esc or Ctrl-C at the question: the turn is interrupted. */
  onInterrupt(): void;
}

const QUESTION = "Start? [1] yes, accept edits / [2] yes, ask before edits / [3] no, keep planning (feedback after 3): ";

/** What one answer means; undefined for an answer that is none of them (asked again). */
export function parsePlanAnswer(line: string): { start: "acceptEdits" | "default" } | { keep: string } | undefined {
  const t = line.trim();
  if (/^(1|a|accept)$/i.test(t)) return { start: "acceptEdits" };
  if (/^(2|d|default)$/i.test(t)) return { start: "default" };
  const keep = /^(3|k|keep|n|no)(?:$|[\s,:;.!-]+(.*))$/is.exec(t);
  if (keep) return { keep: keep[2]?.trim() ?? "" };
  return undefined;
}

/** Asks for the plan's approval; allows the call (and switches the mode) or refuses it with the user's feedback. */
export async function approvePlan(o: PlanApprovalOptions): Promise<PermissionDecision> {
  const plan = readPlan(o.planFile);
  if (plan === undefined || !plan.trim())
    return { behavior: "deny", message: `There is no plan yet: write it to ${o.planFile}, then call ExitPlanMode again.` };
  const rendered = renderMarkdown(terminalText(plan), o.columns - 4, o.style).map((l) => `  ${l}`);
  let body = [o.style.bold(`Here is the plan (${terminalText(o.planFile, { oneLine: true })}):`), "", ...rendered, ""];
  for (;;) {
    const line = await o.ask(o.style.yellow(QUESTION), body);
    body = [];
    if (line === null) {
      o.onInterrupt();
      return { behavior: "deny", message: "The user did not approve the plan yet. Plan mode stays on." };
    }
    const answer = parsePlanAnswer(line);
    if (!answer) continue;
    if ("start" in answer) {
      o.modes.current = answer.start;
      return true;
    }
    return {
      behavior: "deny",
      message: answer.keep
        ? `The user wants you to keep planning. Plan mode stays on. Their feedback: ${answer.keep}`
        : "The user wants you to keep planning. Plan mode stays on: ask what they would change if it is not clear.",
    };
  }
}
