/**
 * Answering the interactive session's questions (permissions, forms) in tmux: each answer waits
 * for its own question on the last line (above the status line) first, since keys sent before a
 * question shows would go to the prompt instead.
 */
import type { SessionTerminal } from "./repl.ts";

/** A turn's status line (`⠹ Waiting for your answer… (3s · esc to cancel)`): drawn under a question while it shows. */
export const isStatusLine = (line: string) => /esc to (cancel|interrupt)\)$/.test(line.trimEnd());

/** The screen's last line above the status line: where the terminal asks. */
export const lastLine = (screen: string) =>
  screen
    .trimEnd()
    .split("\n")
    .filter((l) => !isStatusLine(l))
    .at(-1)!;

/**
 * Waits until the last line starts with `question` and ends with `shown` (what is pre-filled),
 * then clears the input first when `clear` (Ctrl-U), types `typed` and presses Enter.
 */
export async function answer(term: SessionTerminal, question: string, typed = "", opts: { clear?: boolean; shown?: string } = {}): Promise<void> {
  await term.waitFor((s) => lastLine(s).trim().startsWith(question.trim()) && (opts.shown === undefined || lastLine(s).endsWith(opts.shown)));
  if (opts.clear) await term.keys("C-u");
  if (typed) await term.type(typed);
  await term.keys("Enter");
}
