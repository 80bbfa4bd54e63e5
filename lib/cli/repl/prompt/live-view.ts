/**
 * What the interactive session shows around its prompt (terminal.ts draws it): the conversation printed
 * above the live area, and the rows that change in place: the model's pending text, a tool's progress,
 * the task list, the status, notices and a passing hint. Kept apart from the keys and the input, which
 * the Terminal handles; every change redraws.
 */
import { LiveArea } from "../../ui/live-area.ts";

/** Two Ctrl-C presses this close together (ms) leave; a later one starts over. The hint lasts as long. */
export const DOUBLE_PRESS_MS = 2000;

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
}
