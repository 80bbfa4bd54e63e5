/**
 * `/plan` and `/todos` in the session: /plan turns plan mode on (as Shift+Tab does), or in plan
 * mode says where the plan is written; /todos prints the model's task list (task-list-view.ts's
 * marks, without colour so it reads the same everywhere).
 */
import { existsSync } from "node:fs";
import { planFilePath } from "../../../agent/plan/plan-file.ts";
import { taskItems } from "../../../agent/task-list/task-list.ts";
import { terminalText } from "../../../shared/terminal-text.ts";
import type { SessionMode } from "./mode-cycle.ts";

export function planCommand(name: "plan" | "todos" | string, modes: SessionMode | undefined): string {
  if (name === "todos") {
    const items = taskItems();
    if (!items.length) return "No tasks yet.\n";
    const mark = { completed: "✔", in_progress: "▶", pending: "○" } as const;
    return `${items.map((i) => `${mark[i.status]} ${i.id ? `#${i.id} ` : ""}${terminalText(i.status === "in_progress" ? i.activeForm || i.subject : i.subject, { oneLine: true })}`).join("\n")}\n`;
  }
  const file = planFilePath();
  if (modes && modes.current !== "plan") {
    modes.current = "plan";
    return `Plan mode is on: the model reads and plans, and edits nothing but the plan (${file}). Shift+Tab leaves it.\n`;
  }
  return existsSync(file) ? `Plan mode is on. The plan: ${file}\n` : `Plan mode is on. No plan written yet; it goes to ${file}.\n`;
}
