/**
 * Tools whose call is itself a question for the user: ExitPlanMode (approve the plan) and
 * AskUserQuestion (answer the model's questions). The one decision (decide.ts) asks about them in
 * every mode, so the question reaches the person (the session's prompt, the host's `can_use_tool`),
 * and where nobody can be asked they are refused. ExitPlanMode outside plan mode is refused at once.
 */
import type { PermissionMode } from "../permissions/modes.ts";

/** decide.ts's Verdict, as far as these tools need it (decide.ts imports this file). */
type Verdict = { behavior: "deny"; message: string } | { behavior: "ask"; message: string; forced: true };

export const USER_TOOLS = new Set(["ExitPlanMode", "AskUserQuestion"]);

/** The verdict for a call of a user tool; undefined for any other tool. */
export function userToolVerdict(name: string, mode: PermissionMode | undefined): Verdict | undefined {
  if (!USER_TOOLS.has(name)) return undefined;
  if (name === "ExitPlanMode" && mode !== "plan")
    return { behavior: "deny", message: "<tool_use_error>Plan mode is not on, so there is no plan to approve: go on with the task.</tool_use_error>" };
  const message =
    name === "ExitPlanMode"
      ? "The plan needs the user's approval, and nobody can give it here."
      : "Nobody can answer questions here: decide yourself and say what you chose.";
  return mode === "dontAsk" ? { behavior: "deny", message } : { behavior: "ask", message, forced: true };
}
