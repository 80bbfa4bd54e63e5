/**
 * TaskCreate, TaskGet, TaskList and TaskUpdate: Claude Code's names, input schemas and result texts
 * (CC-AGENT-NOTES §2.2, §2.3; sdk-tools.d.ts), over one session's task files (store.ts). The
 * descriptions are ours. An unknown id answers "Task not found", as Claude Code does; a task file
 * that is not a task is an error result naming the file.
 */
import type { InputSchema, Tool } from "../tool.ts";
import { ToolError } from "../tool-error.ts";
import { STATUSES, type Task, type TaskStore } from "./store.ts";

const schema = (properties: Record<string, unknown>, required: string[]): InputSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const str = (description: string) => ({ type: "string", description });
const ids = (description: string) => ({ type: "array", items: { type: "string" }, description });
const metadata = (description: string) => ({ type: "object", additionalProperties: {}, description });

/** Reads the listed fields of `input`, refusing a field of the wrong type or one the schema does not have. */
function read(
  input: Record<string, unknown>,
  tool: string,
  fields: Record<string, "string" | "strings" | "object">,
  required: string[] = [],
): Record<string, unknown> {
  for (const key of Object.keys(input)) if (!(key in fields)) throw new ToolError(`Invalid input for ${tool}: unknown field "${key}"`);
  for (const key of required) if (input[key] === undefined) throw new ToolError(`Invalid input for ${tool}: "${key}" is required`);
  for (const [key, kind] of Object.entries(fields)) {
    const v = input[key];
    if (v === undefined) continue;
    const ok =
      kind === "string"
        ? typeof v === "string"
        : kind === "strings"
          ? Array.isArray(v) && v.every((s) => typeof s === "string")
          : typeof v === "object" && v !== null && !Array.isArray(v);
    if (!ok)
      throw new ToolError(
        `Invalid input for ${tool}: "${key}" must be ${kind === "string" ? "a string" : kind === "strings" ? "an array of strings" : "an object"}`,
      );
  }
  return input;
}

const open = (tasks: Task[], ids: string[]) => ids.filter((id) => tasks.find((t) => t.id === id)?.status !== "completed");

/** The four tools over the store `store()` gives (one per session); `changed` after every change (the session redraws its list). */
export function taskListTools(store: () => TaskStore, changed: () => void = () => undefined): Tool[] {
  const create: Tool = {
    name: "TaskCreate",
    description:
      'Adds a task to this session\'s task list. Use the list for work of three steps or more, or when the user gives several things to do: it shows the user where you are. Give a short subject in the imperative ("Write tests"), a description of what done means, and an activeForm ("Writing tests") shown while it is in progress. New tasks are pending.',
    inputSchema: schema(
      {
        subject: str("A brief title for the task"),
        description: str("What needs to be done"),
        activeForm: str('Present continuous form shown while the task is in progress (e.g. "Running tests")'),
        metadata: metadata("Arbitrary metadata to attach to the task"),
      },
      ["subject", "description"],
    ),
    async run(input) {
      const i = read(input, "TaskCreate", { subject: "string", description: "string", activeForm: "string", metadata: "object" }, ["subject", "description"]);
      const task = store().create(i as Pick<Task, "subject" | "description" | "activeForm" | "metadata">);
      changed();
      return { content: `Task #${task.id} created successfully: ${task.subject}` };
    },
  };
  const get: Tool = {
    name: "TaskGet",
    description: "Shows one task of the task list: its subject, status, description and links to other tasks.",
    inputSchema: schema({ taskId: str("The ID of the task to retrieve") }, ["taskId"]),
    readOnly: true,
    async run(input) {
      const { taskId } = read(input, "TaskGet", { taskId: "string" }, ["taskId"]) as { taskId: string };
      const task = store().get(taskId);
      if (!task) return { content: "Task not found" };
      const lines = [`Task #${task.id}: ${task.subject}`, `Status: ${task.status}`, `Description: ${task.description}`];
      if (task.blocks.length) lines.push(`Blocks: ${task.blocks.map((b) => `#${b}`).join(", ")}`);
      if (task.blockedBy.length) lines.push(`Blocked by: ${task.blockedBy.map((b) => `#${b}`).join(", ")}`);
      return { content: lines.join("\n") };
    },
  };
  const list: Tool = {
    name: "TaskList",
    description: "Lists the task list: each task's id, status and subject, and the open tasks blocking it.",
    inputSchema: schema({}, []),
    readOnly: true,
    async run(input) {
      read(input, "TaskList", {});
      const { tasks, broken } = store().list();
      const lines = tasks.map((t) => {
        const blockers = open(tasks, t.blockedBy);
        return `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` (${t.owner})` : ""}${blockers.length ? ` [blocked by ${blockers.map((b) => `#${b}`).join(", ")}]` : ""}`;
      });
      for (const b of broken) lines.push(`#${b.id} [unreadable] ${b.problem}`);
      return { content: lines.length ? lines.join("\n") : "No tasks found" };
    },
  };
  const update: Tool = {
    name: "TaskUpdate",
    description:
      'Changes a task: mark it in_progress when you start it (one at a time) and completed as soon as it is done, change its subject, description or activeForm, link it to tasks it blocks or that block it, or delete it (status "deleted").',
    inputSchema: schema(
      {
        taskId: str("The ID of the task to update"),
        subject: str("New subject for the task"),
        description: str("New description for the task"),
        activeForm: str('Present continuous form shown while the task is in progress (e.g. "Running tests")'),
        status: {
          anyOf: [
            { type: "string", enum: STATUSES },
            { type: "string", const: "deleted" },
          ],
          description: "New status for the task",
        },
        addBlocks: ids("Task IDs that this task blocks"),
        addBlockedBy: ids("Task IDs that block this task"),
        owner: str("New owner for the task"),
        metadata: metadata("Metadata keys to merge into the task. Set a key to null to delete it."),
      },
      ["taskId"],
    ),
    async run(input) {
      const i = read(
        input,
        "TaskUpdate",
        {
          taskId: "string",
          subject: "string",
          description: "string",
          activeForm: "string",
          status: "string",
          addBlocks: "strings",
          addBlockedBy: "strings",
          owner: "string",
          metadata: "object",
        },
        ["taskId"],
      ) as Partial<Record<string, unknown>> & { taskId: string };
      if (i.status !== undefined && i.status !== "deleted" && !STATUSES.includes(i.status as Task["status"]))
        throw new ToolError(`Invalid input for TaskUpdate: "status" must be one of pending, in_progress, completed, deleted`);
      const s = store();
      const text = s.locked(() => {
        const task = s.get(i.taskId);
        if (!task) return "Task not found";
        if (i.status === "deleted") {
          s.remove(task.id);
          return `Updated task #${task.id} deleted`;
        }
        const fields: string[] = [];
        for (const key of ["subject", "description", "activeForm", "status", "owner"] as const) {
          if (i[key] === undefined || i[key] === task[key]) continue;
          (task as unknown as Record<string, unknown>)[key] = i[key];
          fields.push(key);
        }
        const link = (add: unknown, own: "blocks" | "blockedBy", theirs: "blocks" | "blockedBy") => {
          for (const other of (add as string[] | undefined) ?? []) {
            if (other === task.id || task[own].includes(other)) continue;
            const them = s.get(other);
            if (!them) continue;
            task[own].push(other);
            if (!them[theirs].includes(task.id)) s.write({ ...them, [theirs]: [...them[theirs], task.id] });
            if (!fields.includes(own)) fields.push(own);
          }
        };
        link(i.addBlocks, "blocks", "blockedBy");
        link(i.addBlockedBy, "blockedBy", "blocks");
        if (i.metadata !== undefined) {
          const merged: Record<string, unknown> = { ...(task.metadata ?? {}) };
          for (const [k, v] of Object.entries(i.metadata as Record<string, unknown>)) {
            if (v === null) delete merged[k];
            else merged[k] = v;
          }
          task.metadata = merged;
          fields.push("metadata");
        }
        if (!fields.length) return `Task #${task.id} unchanged`;
        s.write(task);
        return `Updated task #${task.id} ${fields.join(", ")}`;
      });
      changed();
      return { content: text };
    },
  };
  // The list changes nothing outside the session's own notes: no tool of it asks for permission.
  const tools = [create, get, list, update];
  for (const tool of tools) tool.asksPermission = false;
  return tools;
}
