/**
 * Background tasks as Claude Code's stream-json system events (the Agent SDK's
 * SDKTaskStartedMessage, SDKTaskUpdatedMessage, SDKTaskNotificationMessage): what host mode and
 * -p's stream-json print for each change of the register.
 */
import type { TaskEvent } from "./registry.ts";

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
