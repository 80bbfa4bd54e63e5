/**
 * Which background tasks a saved conversation started and never heard the end of: on resume, the
 * session says they did not survive the earlier run (every task is stopped when its run ends).
 * Read from the conversation alone: the launch results (a background command's and a Monitor's
 * id, a background agent's agentId), the notices (`<task-id>` with a `<status>`) and TaskStop results.
 */
import type { MessageParam } from "../messages.ts";

const STARTED = [
  /^Command running in the background with ID: (b[a-z0-9]{8})\./,
  /^Monitor started \(task (b[a-z0-9]{8});/,
  /^The agent was started in the background\. agentId: (a[0-9a-f]{16})/,
];
const ENDED = /<task-id>([a-z0-9]+)<\/task-id>(?:(?!<\/task-notification>)[\s\S])*?<status>/g;
const STOPPED = /"task_id":"([a-z0-9]+)","task_type"/;

function texts(content: MessageParam["content"]): string[] {
  if (typeof content === "string") return [content];
  const out: string[] = [];
  for (const block of content as { type: string; text?: unknown; content?: unknown }[]) {
    if (block.type === "text" && typeof block.text === "string") out.push(block.text);
    if (block.type === "tool_result") {
      if (typeof block.content === "string") out.push(block.content);
      else if (Array.isArray(block.content)) for (const b of block.content as { text?: unknown }[]) if (typeof b.text === "string") out.push(b.text);
    }
  }
  return out;
}

/** The ids of tasks `messages` started and never saw end, in the order they started. */
export function lostTasks(messages: readonly MessageParam[]): string[] {
  const started: string[] = [];
  const over = new Set<string>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const text of texts(m.content)) {
      for (const re of STARTED) {
        const id = text.match(re)?.[1];
        if (id) started.push(id);
      }
      for (const match of text.matchAll(ENDED)) over.add(match[1]!);
      const stopped = text.match(STOPPED)?.[1];
      if (stopped) over.add(stopped);
    }
  }
  return started.filter((id) => !over.has(id));
}
