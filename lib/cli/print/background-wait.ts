/**
 * `-p` with background work: after the prompt's turn, the run does not end while a background task
 * runs. It waits (one stderr line says for what, and until when at the latest), and each batch of
 * notices becomes a further model turn, as Claude Code's -p does; then it ends. It never waits past
 * the longest task's time limit (the register stops a task there, which is itself a notice).
 * A signal while waiting ends the run through lifecycle.ts, whose shutdown stops the tasks.
 */
import type { TaskInfo, TaskRegistry } from "../../agent/background/registry.ts";
import { oneLine } from "../../agent/background/registry.ts";
import { noticeText } from "../../agent/background/notice.ts";
import { KILL_GRACE_MS } from "../../agent/background/shell-task.ts";
import type { TurnOutcome } from "../../agent/turn/turn-shapes.ts";
import { beginWork } from "../../shared/pending-work.ts";

/** Beyond the longest time limit, how long (ms) a task's stop may take before the wait gives up on it. */
const LIMIT_SLACK_MS = 4 * KILL_GRACE_MS;

export interface WaitOptions {
  registry: TaskRegistry;
  /** Runs one further turn with the notices' text as its input. */
  turn(text: string): Promise<TurnOutcome>;
  /** Each turn but the last has ended: stream-json reports it (its own result event). */
  between(outcome: TurnOutcome): void;
  line(text: string): void;
  /** Aborted when the run shuts down (a signal). */
  signal: AbortSignal;
}

/** Whether the run goes on to wait after `outcome`: only a success that is not a StructuredOutput answer. */
function goesOn(outcome: TurnOutcome): boolean {
  if (outcome.kind !== "success") return false;
  // A StructuredOutput answer (or running out of tries) ends the run at once: the shutdown stops the tasks.
  const structured = outcome.structured;
  return structured === undefined || (structured.value === null && !structured.exhausted);
}

/** Runs notice turns until no task runs and no notice waits; returns the last turn's outcome. */
export async function waitForBackground(first: TurnOutcome, o: WaitOptions): Promise<TurnOutcome> {
  let outcome = first;
  let said = "";
  while (goesOn(outcome) && (o.registry.hasNotices() || o.registry.running().length > 0)) {
    if (!o.registry.hasNotices()) {
      const running = o.registry.running();
      const ids = running.map((t) => t.id).join(",");
      if (ids !== said) o.line(waitingLine(running));
      said = ids;
      const done = beginWork(`waiting for background ${running.length === 1 ? "task" : "tasks"} ${running.map((t) => t.id).join(", ")}`);
      const limit = Math.max(...running.map((t) => t.deadline)) + LIMIT_SLACK_MS - Date.now();
      const expired = AbortSignal.timeout(Math.max(limit, 0));
      await o.registry.changed(AbortSignal.any([o.signal, expired]));
      done();
      if (o.signal.aborted) return outcome;
      if (expired.aborted && !o.registry.hasNotices()) {
        await o.registry.stopAll("it outlived its time limit");
        break;
      }
    }
    const notices = o.registry.takeNotices();
    if (notices.length === 0) continue;
    o.between(outcome);
    outcome = await o.turn(noticeText(notices));
  }
  return outcome;
}

/** `waiting for 2 background tasks to end (b1…: npm run dev; b2…: sleep 5), at most 600 s`. */
export function waitingLine(running: TaskInfo[]): string {
  const tasks = running.map((t) => `${t.id}: ${oneLine(t.label)}`).join("; ");
  const longest = Math.max(...running.map((t) => t.deadline)) - Date.now();
  const n = running.length === 1 ? "1 background task" : `${running.length} background tasks`;
  return `waiting for ${n} to end (${tasks}), at most ${Math.max(1, Math.ceil(longest / 1000))} s`;
}
