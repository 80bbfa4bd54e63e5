/**
 * Work a run has begun and not finished, by label ("the run (-p)", `MCP server "db" start-up`):
 * what the silence backstop (lib/agent/lifecycle.ts) names when the event loop empties while
 * some of it is still pending. No imports: every layer may mark its work.
 */
const pending = new Map<number, string>();
let next = 1;

/** Marks `label` as under way; the returned function (idempotent) marks it finished. */
export function beginWork(label: string): () => void {
  const id = next++;
  pending.set(id, label);
  return () => void pending.delete(id);
}

/** The labels of work begun and not finished, oldest first. */
export function pendingWork(): string[] {
  return [...pending.values()];
}
