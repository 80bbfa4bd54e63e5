/**
 * Background work in the interactive session: `/tasks` (list, `/tasks stop <id>`), the status
 * line's count of running tasks, a notice's turn when the prompt is idle and empty (a notice that
 * comes while the user types or a turn runs waits until that turn is over), and the question
 * `/exit` asks while tasks still run.
 */
import type { TaskInfo, TaskRegistry } from "../../agent/background/registry.ts";
import { oneLine } from "../../agent/background/registry.ts";
import { noticeText } from "../../agent/background/notice.ts";
import type { ContentBlock } from "../../agent/messages.ts";
import type { Style } from "../ui/style.ts";
import type { Terminal } from "./prompt/terminal.ts";
import { terminalText } from "../../shared/terminal-text.ts";

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))}s`;

function describe(t: TaskInfo): string {
  const took = seconds((t.endedAt ?? Date.now()) - t.startedAt);
  const code = t.exitCode === undefined || t.exitCode === null ? "" : ` (exit code ${t.exitCode})`;
  const kind = t.type === "monitor" ? "monitor" : t.type === "local_agent" ? "agent" : "shell";
  return `  ${t.id}  ${t.status}${code}  ${took}  ${kind}: ${oneLine(t.label)}\n      output: ${t.outputFile}`;
}

/** `/tasks`: every background task of this session, running first; `/tasks stop <id>` stops one. */
export async function tasksCommand(args: string, registry: TaskRegistry | undefined): Promise<string> {
  if (!registry) return "Background tasks are not available in this session.\n";
  const stop = args.match(/^stop\s+(\S+)\s*$/);
  if (stop) {
    try {
      const t = await registry.stop(stop[1]!);
      return `Stopped ${t.id} (${oneLine(t.label)}) and every process it started.\n`;
    } catch (err) {
      return `error: ${terminalText((err as Error).message, { oneLine: true })}\n`;
    }
  }
  if (args.trim()) return "usage: /tasks, or /tasks stop <id>\n";
  const all = registry.list();
  if (!all.length) return "No background tasks in this session.\n";
  const running = all.filter((t) => t.status === "running");
  const over = all.filter((t) => t.status !== "running");
  return `${[...running, ...over].map(describe).join("\n")}\n${running.length ? "Stop one with /tasks stop <id>.\n" : ""}`;
}

/** The status line's count: "2 background tasks running · /tasks"; undefined with none. */
export function tasksLine(registry: TaskRegistry, style: Style): string | undefined {
  const n = registry.running().length;
  return n ? style.dim(`${n} background ${n === 1 ? "task" : "tasks"} running · /tasks`) : undefined;
}

/**
 * Keeps the status line's count current and wakes an idle, empty prompt when a notice is queued.
 * Returns the unsubscribe.
 */
export function followTasks(registry: TaskRegistry, term: Terminal, style: Style): () => void {
  return registry.listen(() => {
    term.setTasksLine(tasksLine(registry, style));
    if (registry.hasNotices()) term.wakeReader();
  });
}

/** The queued notices as one turn's input, with the line the user sees; undefined when none waits. */
export function noticeTurn(registry: TaskRegistry | undefined, style: Style): { input: ContentBlock[]; line: string } | undefined {
  const notices = registry?.takeNotices() ?? [];
  if (!notices.length) return undefined;
  const what = notices.map((n) => `${n.taskId}: ${oneLine(n.summary)}${eventGist(n.event)}`).join("; ");
  return { input: [{ type: "text", text: noticeText(notices) }], line: style.dim(`⎿ background notice for the model: ${what}`) };
}

/**
 * A Monitor event's first line, so the user sees what the model heard (` — tick 1 (+2 lines)`);
 * empty for other notices. Through oneLine: the line is a command's output, never a terminal code.
 */
export function eventGist(event: string | undefined): string {
  const lines = (event ?? "").split("\n").filter((l) => l.trim());
  if (!lines.length) return "";
  const more = lines.length > 1 ? ` (+${lines.length - 1} ${lines.length === 2 ? "line" : "lines"})` : "";
  return ` — ${oneLine(lines[0]!)}${more}`;
}

/** `/exit` while tasks run: asks whether to stop them and leave. True to leave. */
export async function confirmExit(registry: TaskRegistry | undefined, term: Terminal, style: Style): Promise<boolean> {
  const running = registry?.running() ?? [];
  if (!running.length) return true;
  const list = running.map((t) => `  ${t.id}  ${oneLine(t.label)}`);
  const n = running.length === 1 ? "1 background task is" : `${running.length} background tasks are`;
  const answer = await term.ask(style.yellow("Stop them and exit? [y/N] "), [`${n} still running:`, ...list]);
  return answer !== null && /^y(es)?$/i.test(answer.trim());
}
