/**
 * The task list as the session draws it under the conversation, updated in place: a done item
 * struck through (and ticked, for terminals without colour), the active one by its activeForm, in
 * bold. Subjects are the model's text: they go through the one sanitizer (terminal-text.ts). A list
 * whose items are all done is not drawn.
 */
import type { TaskItem } from "../../agent/task-list/task-list.ts";
import { terminalText } from "../../shared/terminal-text.ts";
import type { Style } from "./style.ts";

/** At most this many items are drawn; the rest are counted. */
const SHOWN = 10;

export function taskListLines(items: readonly TaskItem[], style: Style, columns: number): string[] {
  if (!items.some((i) => i.status !== "completed")) return [];
  const clip = (s: string) => {
    const one = terminalText(s, { oneLine: true });
    return one.length > columns - 6 ? `${one.slice(0, Math.max(10, columns - 7))}…` : one;
  };
  const lines = items.slice(0, SHOWN).map((i) => {
    if (i.status === "completed") return `  ${style.green("✔")} ${style.dim(style.strike(clip(i.subject)))}`;
    if (i.status === "in_progress") return `  ${style.yellow("▶")} ${style.bold(clip(i.activeForm || i.subject))}`;
    return `  ${style.dim("○")} ${clip(i.subject)}`;
  });
  if (items.length > SHOWN) lines.push(style.dim(`  … and ${items.length - SHOWN} more`));
  return lines;
}
