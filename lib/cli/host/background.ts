/**
 * Background work in host mode: the register's changes as Claude Code's system events
 * (`task_started`, `task_updated`, `task_notification`), the SDK's `stop_task` reaching TaskStop's
 * register, and notices turned into turns when the host sends nothing: the next input is
 * whichever comes first, a user line or a batch of notices.
 */
import type { TaskRegistry } from "../../agent/background/registry.ts";
import { taskEvents } from "../../agent/background/stream-events.ts";
import { noticeText } from "../../agent/background/notice.ts";
import type { UserLine } from "./host-turn.ts";

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
