/**
 * Background work in host mode: the register's changes as Claude Code's system events
 * (`task_started`, `task_updated`, `task_notification`), the SDK's `stop_task` reaching TaskStop's
 * register, and notices turned into turns when the host sends nothing: the next input is
 * whichever comes first, a user line or a batch of notices.
 */
import type { TaskEvent, TaskRegistry } from "../../agent/background/registry.ts";
import { noticeText } from "../../agent/background/notice.ts";
import type { UserLine } from "./host-turn.ts";

const base = (sessionId: string) => ({ uuid: crypto.randomUUID(), session_id: sessionId });

/** The SDK's task events for one change of the register (none for a Monitor's event: that is a notice turn). */
export function taskEvents(e: TaskEvent, sessionId: string): object[] {
  const t = e.task;
  if (e.kind === "started") {
    return [
      {
        type: "system",
        subtype: "task_started",
        task_id: t.id,
        ...(t.toolUseId ? { tool_use_id: t.toolUseId } : {}),
        description: t.label,
        task_type: t.type,
        is_backgrounded: true,
        ...base(sessionId),
      },
    ];
  }
  if (e.kind !== "ended") return [];
  // The SDK's task_updated says killed for a stop; its task_notification says stopped (a time limit included).
  const patchStatus = t.status === "stopped" ? "killed" : t.status;
  const noticeStatus = t.status === "completed" ? "completed" : t.status === "failed" ? "failed" : "stopped";
  return [
    { type: "system", subtype: "task_updated", task_id: t.id, patch: { status: patchStatus, end_time: t.endedAt ?? Date.now() }, ...base(sessionId) },
    {
      type: "system",
      subtype: "task_notification",
      task_id: t.id,
      ...(t.toolUseId ? { tool_use_id: t.toolUseId } : {}),
      status: noticeStatus,
      output_file: t.outputFile,
      summary: e.notice?.summary ?? `Background task "${t.label}" was stopped`,
      ...base(sessionId),
    },
  ];
}

/** Emits the register's task events as they happen; returns the unsubscribe. */
export function forwardTaskEvents(registry: TaskRegistry, emit: (m: object) => void, sessionId: () => string): () => void {
  return registry.listen((e) => {
    for (const event of taskEvents(e, sessionId())) emit(event);
  });
}

/**
 * The host's next input: a user line, or (when notices are queued first) one user line made of
 * them. `pending` is the queue's outstanding `next()`, kept across calls so no line is lost.
 */
export async function nextInput(
  pending: { line: Promise<UserLine | undefined> },
  next: () => Promise<UserLine | undefined>,
  registry: TaskRegistry | undefined,
): Promise<UserLine | undefined> {
  if (registry) {
    const stop = new AbortController();
    await Promise.race([pending.line, registry.changed(stop.signal)]);
    stop.abort();
    const notices = registry.takeNotices();
    if (notices.length) return { type: "user", message: { role: "user", content: [{ type: "text", text: noticeText(notices) }] } };
  }
  const line = await pending.line;
  if (line) pending.line = next();
  return line;
}
