/**
 * What the model is told while plan mode is on: a text block of the system-role context message
 * every request carries after its first message (where Claude Code puts it), in our words. It
 * names the plan file and how the plan ends: ExitPlanMode where it is offered (the session, host
 * mode), else the turn's final answer (-p), where nobody is there to answer a question either.
 */
import type { SystemMessageParam } from "../messages.ts";
import type { PermissionMode } from "../permissions/modes.ts";
import { planFilePath } from "./plan-file.ts";

/** The note for plan mode, with `planFile` and how the plan is handed over. */
export function planModeNote(planFile: string, exitTool: boolean): string {
  return [
    "Plan mode is on. The user wants a plan before anything changes, so do not edit files, run commands that change anything, or use tools with side effects: such calls are refused.",
    exitTool
      ? "You may read and search (Read, Glob, Grep, read-only shell commands such as ls, cat, grep, find, git log and git diff), use subagents to explore, and ask the user questions when something is unclear."
      : // -p: nobody answers AskUserQuestion there (it is not offered), so the model is not told to ask.
        "You may read and search (Read, Glob, Grep, read-only shell commands such as ls, cat, grep, find, git log and git diff). Nobody can answer questions during this run: where something is unclear, say in the plan what you assumed.",
    `Write the plan to ${planFile}, the only file you may write now: create it with Write, then refine it with Edit.`,
    "Work in steps: understand the code the request concerns, weigh the ways to do it, then write a plan that names the files to change, the changes in order, the risks, and how to check the result.",
    exitTool
      ? "When the plan is complete, call ExitPlanMode: the user reads the plan and approves it or asks for changes. Do not ask for approval in any other way."
      : "When the plan is complete, end your turn with the whole plan as your answer.",
  ].join("\n");
}

/** `context` with plan mode's note added when `mode` is plan; unchanged otherwise. */
export function withPlanNote(
  context: SystemMessageParam | undefined,
  mode: PermissionMode | undefined,
  exitTool: () => boolean,
): SystemMessageParam | undefined {
  if (mode !== "plan") return context;
  const note = { type: "text" as const, text: planModeNote(planFilePath(), exitTool()) };
  return { role: "system", content: [...(context?.content ?? []), note] };
}
