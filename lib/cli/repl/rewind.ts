/**
 * `/rewind` (or Esc twice on an empty input): the user's earlier messages, newest first, each with
 * the files its turn changed (`+12 −3`); then code and conversation, code only, or conversation
 * only. Code goes back whole or not at all (agent/checkpoints/apply.ts); files changed since by
 * someone other than the agent are named and overwritten only when the user says so. The
 * conversation goes back as a fork (--fork-session's way): a new session holding the messages
 * before the chosen one, the old session kept whole and resumable.
 */
import { relative } from "node:path";
import type { Entry } from "../../agent/conversation.ts";
import type { FileCheckpoints } from "../../agent/checkpoints/tracker.ts";
import { describeStep, previewRewind, rewindFiles } from "../../agent/checkpoints/rewind.ts";
import { messageStats } from "../../agent/checkpoints/stats.ts";
import { forkCheckpoints } from "../../agent/checkpoints/fork.ts";
import { rewindProblems } from "../../agent/checkpoints/apply.ts";
import type { Style } from "../ui/style.ts";
import type { Terminal } from "./prompt/terminal.ts";
import type { ReplState } from "./commands.ts";
import { visibleText } from "../../shared/terminal-text.ts";
import { errorMessage } from "../../shared/values.ts";

const SHOWN = 20;

/** The dialog, start to end; everything it says goes to the terminal. */
export async function rewindDialog(state: ReplState, term: Terminal, style: Style, cwd: string): Promise<void> {
  const prompts = userPrompts(state.conversation.all).reverse().slice(0, SHOWN);
  if (!prompts.length) return term.print("Nothing to rewind to yet: no earlier message in this conversation.\n");
  const cp = state.checkpoints;
  const lines = prompts.map((entry, i) => `${String(i + 1).padStart(3)}. ${oneLine(entry)}${filesOf(cp, entry.id, cwd, style)}`);
  const pick = await term.ask(`Rewind to which message? (1-${prompts.length}, Esc to cancel) `, ["Rewind to before one of your messages:", ...lines]);
  const n = Number(pick?.trim());
  if (!pick?.trim() || !Number.isInteger(n) || n < 1 || n > prompts.length) return term.print("Rewind cancelled.\n");
  const target = prompts[n - 1]!;
  const how = await term.ask("Restore (1-3, Esc to cancel) ", ["  1. code and conversation", "  2. code only", "  3. conversation only"]);
  const choice = how?.trim();
  if (choice !== "1" && choice !== "2" && choice !== "3") return term.print("Rewind cancelled.\n");
  if (choice !== "3") {
    const done = await rewindCode(state, term, style, target.id, cwd);
    if (!done) return;
  }
  if (choice !== "2") forkConversation(state, term, target.id);
}

/** User messages that are prompts (not only tool results), oldest first. */
function userPrompts(entries: readonly Entry[]): Entry[] {
  return entries.filter((e) => e.message.role === "user" && e.message.content.some((b) => b.type === "text"));
}

function oneLine(entry: Entry): string {
  const text = entry.message.content.find((b): b is { type: "text"; text: string } => b.type === "text")?.text ?? "";
  const flat = visibleText(text).replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

function filesOf(cp: FileCheckpoints | undefined, id: string, cwd: string, style: Style): string {
  if (!cp) return "";
  const stats = messageStats(cp.snapshots, id, cp.store);
  if (!stats.length) return "";
  return style.dim(`  ${stats.map((s) => `${visibleText(shortPath(s.path, cwd))} +${s.insertions} −${s.deletions}`).join(", ")}`);
}

const shortPath = (path: string, cwd: string) => {
  const rel = relative(cwd, path);
  return rel.startsWith("..") ? path : rel;
};

/** The first message at or after `id` that has a checkpoint: a turn before checkpoints were on has none. */
function checkpointAtOrAfter(state: ReplState, cp: FileCheckpoints, id: string): string | undefined {
  const prompts = userPrompts(state.conversation.all);
  return prompts.slice(prompts.findIndex((e) => e.id === id)).find((e) => cp.snapshots.has(e.id))?.id;
}

/** Restores the files; false when it did not (refused, cancelled, failed), with what it said printed. */
async function rewindCode(state: ReplState, term: Terminal, style: Style, id: string, cwd: string): Promise<boolean> {
  const cp = state.checkpoints;
  if (!cp) {
    term.print("File checkpoints are off in this session (fileCheckpointingEnabled: false): no code to restore.\n");
    return true;
  }
  const at = checkpointAtOrAfter(state, cp, id);
  if (!at) {
    term.print("No file was changed by the agent since that message: no code to restore.\n");
    return true;
  }
  try {
    const preview = previewRewind(cp, at);
    for (const note of preview.plan.notes) term.print(style.dim(`${visibleText(note)}\n`));
    const blocking = rewindProblems(preview.plan, cp.store, true);
    if (blocking.length) {
      term.print(style.red(`Rewind refused, nothing changed:\n${blocking.map((p) => `  ${visibleText(p)}`).join("\n")}\n`));
      return false;
    }
    const changed = preview.plan.steps.filter((s) => s.changedByUser);
    let overwrite = false;
    if (changed.length) {
      const answer = await term.ask(style.yellow("Overwrite them? (y/N) "), [
        "These files were changed since by someone other than the agent:",
        ...changed.map((s) => `  ${visibleText(shortPath(s.path, cwd))}`),
      ]);
      if (!/^y(es)?$/i.test(answer?.trim() ?? "")) {
        term.print("Rewind cancelled; nothing changed.\n");
        return false;
      }
      overwrite = true;
    }
    const { steps } = rewindFiles(cp, at, overwrite);
    term.print(
      steps.length ? `Code rewound:\n${steps.map((s) => `  ${visibleText(describeStep(s))}`).join("\n")}\n` : "The files are already as they were then.\n",
    );
    return true;
  } catch (err) {
    term.print(style.red(`${visibleText(errorMessage(err))}\n`));
    return false;
  }
}

/** The conversation before message `id`, as a new session; the old one stays as it was. */
function forkConversation(state: ReplState, term: Terminal, id: string): void {
  const { conversation, session } = state;
  const at = conversation.all.findIndex((e) => e.id === id);
  if (at < 0) return;
  const from = conversation.sessionId;
  const next = session.fresh(from);
  conversation.redirect(next.sessionId, next.sink, true);
  if (state.checkpoints) for (const row of forkCheckpoints(state.checkpoints, from, next.sessionId)) conversation.note(row);
  conversation.rollback(at);
  term.print(`Conversation rewound to before that message, in a new session ${next.sessionId} (the previous one is kept: --resume ${from}).\n`);
}
