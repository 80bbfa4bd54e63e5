/**
 * What the model reads when background work changes state: Claude Code's `<task-notification>`
 * shape (task id, tool-use id, output file, status, summary, note, event), inside a frame saying
 * plainly that it is an automated event and not the user's words. The wording is ours.
 */

export type NoticeStatus = "completed" | "failed" | "killed";

export interface Notice {
  taskId: string;
  toolUseId?: string;
  outputFile?: string;
  /** Absent for a Monitor's event (the task goes on). */
  status?: NoticeStatus;
  summary: string;
  note?: string;
  /** A Monitor's event lines. */
  event?: string;
  exitCode?: number | null;
  /** A background agent's report. */
  result?: string;
  /** A Monitor's lines dropped because this notice was full. */
  dropped?: number;
}

const FRAME_HEAD = [
  "[AUTOMATED NOTICE - NOT FROM THE USER]",
  "A background task you started changed state. This text comes from the agent program, not from the user:",
  "it is neither their reply nor their approval of anything.",
].join("\n");

/** Text for an XML element's content: `<`, `>` and `&` escaped so output cannot close the frame. */
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The `<task-notification>` element alone. */
export function taskNotification(n: Notice): string {
  const lines = ["<task-notification>", `<task-id>${esc(n.taskId)}</task-id>`];
  if (n.toolUseId) lines.push(`<tool-use-id>${esc(n.toolUseId)}</tool-use-id>`);
  if (n.outputFile) lines.push(`<output-file>${esc(n.outputFile)}</output-file>`);
  if (n.status) lines.push(`<status>${n.status}</status>`);
  lines.push(`<summary>${esc(n.summary)}</summary>`);
  if (n.note) lines.push(`<note>${esc(n.note)}</note>`);
  if (n.event !== undefined) lines.push(`<event>${esc(n.event)}</event>`);
  if (n.result !== undefined) lines.push(`<result>${esc(n.result)}</result>`);
  if (n.dropped) lines.push(`<note>${n.dropped} more event lines came while this notice waited and were dropped; the output file has them</note>`);
  lines.push("</task-notification>");
  return lines.join("\n");
}

/** The user turn's text for one or more notices: the frame, then each notification. */
export function noticeText(notices: readonly Notice[]): string {
  return ["<system-reminder>", FRAME_HEAD, ...notices.map(taskNotification), "</system-reminder>"].join("\n");
}

/** Claude Code's summary for a background command that ended: `Background command "<desc>" completed (exit code 0)`. */
export function shellSummary(label: string, status: NoticeStatus, exitCode: number | null, signal: string | null): string {
  if (status === "killed") return `Background command "${label}" was stopped after reaching its background time limit`;
  if (exitCode !== null) return `Background command "${label}" ${status} (exit code ${exitCode})`;
  return `Background command "${label}" ${status} (killed by ${signal ?? "a signal"})`;
}

/** The note a time-limit stop carries: what the model should do next. */
export const TIME_LIMIT_NOTE =
  "Start it again with run_in_background and a longer timeout only if the work still needs it and a longer timeout is allowed; otherwise do not restart it. In both cases, tell the user it was stopped.";
