/**
 * TodoWrite, the task list's older form (offered instead of the Task tools when
 * CLAUDE_CODE_ENABLE_TASKS=0, as Claude Code does): the model sends the whole list each time; it
 * lives in the conversation only, as in Claude Code (no file). Claude Code's schema and result text.
 */
import type { Tool } from "../tool.ts";
import { ToolError } from "../tool-error.ts";
import { STATUSES, type TaskStatus } from "./store.ts";

export interface Todo {
  content: string;
  status: TaskStatus;
  activeForm: string;
}

export const TODO_RESULT =
  "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable";

/** The list as sent, checked item by item. @throws ToolError naming every problem. */
export function parseTodos(input: Record<string, unknown>): Todo[] {
  const problems: string[] = [];
  const todos = input.todos;
  if (!Array.isArray(todos)) throw new ToolError("Invalid input for TodoWrite: `todos` is required and must be an array");
  for (const key of Object.keys(input)) if (key !== "todos") problems.push(`unknown field \`${key}\``);
  todos.forEach((t, n) => {
    const item = (t ?? {}) as Record<string, unknown>;
    for (const key of ["content", "activeForm"]) {
      if (typeof item[key] !== "string" || !(item[key] as string).length) problems.push(`\`todos[${n}].${key}\` must be a non-empty string`);
    }
    if (!STATUSES.includes(item.status as TaskStatus)) problems.push(`\`todos[${n}].status\` must be one of pending, in_progress, completed`);
  });
  if (problems.length) throw new ToolError(`Invalid input for TodoWrite:\n${problems.join("\n")}`);
  return todos as Todo[];
}

/** The tool; `changed` gets the new list (the session shows it). */
export function todoWriteTool(changed: (todos: Todo[]) => void = () => undefined): Tool {
  return {
    name: "TodoWrite",
    description:
      'Replaces the session\'s todo list with the list you send. Use it for work of three steps or more: keep exactly one item in_progress while you work, and mark items completed as soon as they are done. Each item has content (imperative: "Run tests"), status, and activeForm ("Running tests").',
    inputSchema: {
      type: "object",
      properties: {
        todos: {
          type: "array",
          description: "The updated todo list",
          items: {
            type: "object",
            properties: {
              content: { type: "string", minLength: 1 },
              status: { type: "string", enum: STATUSES },
              activeForm: { type: "string", minLength: 1 },
            },
            required: ["content", "status", "activeForm"],
            additionalProperties: false,
          },
        },
      },
      required: ["todos"],
      additionalProperties: false,
    },
    // The list changes nothing outside the conversation: no question.
    asksPermission: false,
    async run(input) {
      changed(parseTodos(input));
      return { content: TODO_RESULT };
    },
  };
}
