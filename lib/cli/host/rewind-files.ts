/**
 * The Agent SDK's `rewind_files` control request (`rewindFiles(userMessageId, { dryRun })`):
 * answered with its `RewindFilesResult` — `canRewind`, and `filesChanged`, `insertions` and
 * `deletions` (the lines the rewind takes back), or `error` saying in one line why it cannot.
 * A dry run changes nothing; a real one goes whole or not at all (agent/checkpoints/apply.ts).
 */
import type { FileCheckpoints } from "../../agent/checkpoints/tracker.ts";
import { previewRewind, rewindFiles } from "../../agent/checkpoints/rewind.ts";
import { errorMessage } from "../../shared/values.ts";

export function rewindFilesAnswer(checkpoints: FileCheckpoints | undefined, messageId: unknown, dryRun: boolean): object {
  if (!checkpoints) return { canRewind: false, error: "file checkpointing is off (the SDK's enableFileCheckpointing turns it on)" };
  if (typeof messageId !== "string" || !messageId) return { canRewind: false, error: "rewind_files needs user_message_id" };
  try {
    const preview = previewRewind(checkpoints, messageId);
    const counts = { filesChanged: preview.plan.steps.map((s) => s.path), insertions: preview.insertions, deletions: preview.deletions };
    if (preview.problems.length) return { canRewind: false, error: preview.problems.join("; "), ...counts };
    if (!dryRun) rewindFiles(checkpoints, messageId);
    return { canRewind: true, ...counts };
  } catch (err) {
    return { canRewind: false, error: errorMessage(err) };
  }
}
