/**
 * What the interactive session shows around its prompt (terminal.ts supplies the prompt): the conversation printed
 * above the live area, and the rows that change in place: the model's pending text, a tool's progress,
 * the task list, the status, notices and a passing hint. Kept apart from the keys and the input, which
 * the Terminal handles; every change redraws, and `draw` lays the rows out around the prompt.
 */
import { LiveArea } from "../../ui/live-area.ts";

/** Two Ctrl-C presses this close together (ms) leave; a later one starts over. The hint lasts as long. */
export const DOUBLE_PRESS_MS = 2000;

/** Continuation lines of a multi-line input are indented under the prompt. */
export const CONTINUATION = "  ";

/**
 * What the Terminal puts on the prompt's rows: a picker's lines, or an input (the prompt's or a
 * question's) with the rows above it (the mode, queued inputs) and under it (completions, a hint).
 */
export type PromptRows = { picker: string[] } | { question: boolean; above: string[]; first: string; text: string; cursor: number; below: string[] };

/** The live rows' state; the Terminal extends it with the prompt and its keys. */
export abstract class LiveView {
  protected readonly area = new LiveArea(process.stdout);
  protected notice: string | undefined;
  protected tasksLine: string | undefined;
  protected status: string | undefined;
  protected activity: string[] = [];
  /** The task list, under the conversation (task-list-view.ts). */
  protected tasks: string[] = [];
  protected pending: string[] = [];
  protected hint: string | undefined;
  protected hintTimer: Timer | undefined;

  /** Draws the live area again from the state (the prompt's rows are the Terminal's). */
  protected abstract redraw(): void;

  /** A line under the status saying how many background tasks run; undefined hides it. */
  setTasksLine(line: string | undefined): void {
    this.tasksLine = line;
    this.redraw();
  }

  /** A line under the status (MCP servers still connecting); undefined hides it. */
  setNotice(line: string | undefined): void {
    this.notice = line;
    this.redraw();
  }

  /** Prints whole lines above the live area (the conversation). */
  print(text: string): void {
    this.area.print(text);
  }

  /** The status line (spinner, what runs, elapsed); undefined hides it. */
  setStatus(line: string | undefined): void {
    this.status = line;
    this.redraw();
  }

  /** Lines above the status that change in place (a running tool's progress). */
  setActivity(lines: string[]): void {
    this.activity = lines;
    this.redraw();
  }

  /** The task list's lines, drawn under the conversation until replaced; [] hides it. */
  setTasks(lines: string[]): void {
    this.tasks = lines;
    this.redraw();
  }

  /** The model's text still arriving, rendered: shown live above the activity until printed. */
  setPending(lines: string[]): void {
    this.pending = lines;
    this.redraw();
  }

  protected showHint(hint: string): void {
    this.hint = hint;
    clearTimeout(this.hintTimer);
    this.hintTimer = setTimeout(() => {
      this.hint = undefined;
      this.redraw();
    }, DOUBLE_PRESS_MS);
    this.hintTimer.unref?.();
    this.redraw();
  }

  /** Renders the live rows around `prompt`, the cursor in its input (the last row, under a picker). */
  protected draw(prompt: PromptRows): void {
    const lines = [...this.pending, ...this.activity, ...this.tasks];
    if ("picker" in prompt) {
      lines.push(...prompt.picker, ...[this.status, this.notice].filter((l) => l !== undefined));
      this.area.render({ lines, cursor: { line: lines.length - 1, index: 0 } });
      return;
    }
    // While a question shows, the status goes under it: what it printed (a form field's label) stays next to its input row.
    const status = [this.status, this.notice, this.tasksLine].filter((l) => l !== undefined);
    if (!prompt.question) lines.push(...status);
    lines.push(...prompt.above);
    const { first, text } = prompt;
    const before = text.slice(0, prompt.cursor);
    const row = before.split("\n").length - 1;
    const cursorLine = lines.length + row;
    const index = (row === 0 ? first.length : CONTINUATION.length) + before.length - (before.lastIndexOf("\n") + 1);
    for (const [n, line] of text.split("\n").entries()) lines.push((n === 0 ? first : CONTINUATION) + line);
    lines.push(...prompt.below);
    if (prompt.question) lines.push(...status);
    this.area.render({ lines, cursor: { line: cursorLine, index } });
  }
}
