/**
 * The task list of the conversation running now: the Task tools' store for its session
 * (`~/.claude/tasks/<session>/`, tools/task-list/store.ts), or TodoWrite's list when
 * CLAUDE_CODE_ENABLE_TASKS=0 picks the older tool; and the items as a display shows them, with a
 * call whenever they change (the session draws them under the conversation).
 */
import { join } from "node:path";
import type { Tool } from "../../tools/tool.ts";
import { TaskStore, type TaskStatus } from "../../tools/task-list/store.ts";
import { taskListTools } from "../../tools/task-list/task-tools.ts";
import { type Todo, todoWriteTool } from "../../tools/task-list/todo-write.ts";
import { userConfigDir } from "../../shared/claude-home.ts";

/** One item as a display shows it. */
export interface TaskItem {
  id?: string;
  subject: string;
  status: TaskStatus;
  activeForm?: string;
}

let sessionOf: () => string = (() => {
  const id = crypto.randomUUID();
  return () => id;
})();
let todos: Todo[] = [];
const listeners = new Set<(items: TaskItem[]) => void>();

/** The conversation whose task list the tools use (Run.begin); its session id may change (/clear). */
export function bindTaskList(sessionId: () => string): void {
  sessionOf = sessionId;
}

/** Calls `fn` with the items after every change; returns how to stop. */
export function onTaskListChange(fn: (items: TaskItem[]) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** This session's task folder: a session id is a UUID, anything else is kept out of the path. */
export function taskStore(): TaskStore {
  const id = sessionOf().replace(/[^\w-]/g, "_");
  return new TaskStore(join(userConfigDir(), "tasks", id));
}

/** Whether the environment picks TodoWrite over the Task tools (Claude Code's CLAUDE_CODE_ENABLE_TASKS=0). */
export function todoWriteInstead(env: Record<string, string | undefined> = process.env): boolean {
  const v = env.CLAUDE_CODE_ENABLE_TASKS?.trim().toLowerCase();
  return v === "0" || v === "false" || v === "no";
}

/** The items now: the Task tools' files (unreadable ones left out), or TodoWrite's list. */
export function taskItems(): TaskItem[] {
  if (todoWriteInstead()) return todos.map((t) => ({ subject: t.content, status: t.status, activeForm: t.activeForm }));
  try {
    return taskStore()
      .list()
      .tasks.map((t) => ({ id: t.id, subject: t.subject, status: t.status, ...(t.activeForm ? { activeForm: t.activeForm } : {}) }));
  } catch {
    return [];
  }
}

function changed(): void {
  if (!listeners.size) return;
  const items = taskItems();
  for (const fn of listeners) fn(items);
}

/** The task list's tools for this run: TodoWrite, or the four Task tools. */
export function taskTools(): Tool[] {
  if (todoWriteInstead())
    return [
      todoWriteTool((list) => {
        todos = list;
        changed();
      }),
    ];
  return taskListTools(taskStore, changed);
}
