/**
 * The interactive session's terminal: raw mode for the whole session (raw-keyboard.ts), keys
 * decoded by key-decoder.ts into the prompt's editor (line-editor.ts), drawn by the live area (live-area.ts).
 * The prompt stays usable while a turn runs: Enter then queues the input (shown as queued), and
 * queued inputs are handed out one by one, each as its own turn, by the following `readLine`s.
 * Keys: Esc interrupts a turn (or a question); Ctrl-C interrupts a turn, or clears the input; a
 * second Ctrl-C within DOUBLE_PRESS_MS of the first leaves; Ctrl-D on an empty input leaves;
 * Ctrl-Z suspends the session (`fg` brings it back); Shift+Tab changes the permission mode.
 */
import type { Completer } from "./complete.ts";
import { TabCompletion } from "./tab.ts";
import { setInterruptHandler } from "../../../agent/lifecycle.ts";
import type { Key } from "./key-decoder.ts";
import { KeyInput } from "./raw-keyboard.ts";
import { LineEditor } from "./line-editor.ts";
import { applyEditingKey } from "./key-bindings.ts";
import { CONTINUATION, DOUBLE_PRESS_MS, LiveView } from "./live-view.ts";
import type { Style } from "../../ui/style.ts";
import { type Ask, Questions } from "./questions.ts";

export const PROMPT = "> ";

export interface TerminalOptions {
  completer: Completer;
  /** Saved history, newest first. */
  history: string[];
  style: Style;
  /** Shift+Tab (the session's mode cycle, mode-cycle.ts). */
  onShiftTab?(): void;
  /** A dim line just above the prompt (the permission mode); undefined shows none. */
  modeLine?(): string | undefined;
}

/** The prompt and its live area (see the file comment); one per session, closed with `close()`. */
export class Terminal extends LiveView {
  private readonly input: KeyInput;
  private readonly editor: LineEditor;
  private readonly tab: TabCompletion;
  private readonly queue: string[] = [];
  /** Keys read right after a question was answered, held for one tick (see answer). */
  private afterAnswer: Key[] | undefined;
  private reader: ((line: string | null) => void) | undefined;
  /** A picker holding the question row (pick), if any: it takes the keys. */
  private picker: { lines(): string[]; key(key: Key): void; cancel(): void } | undefined;
  private readonly questions = new Questions({
    print: (text) => this.area.print(text),
    redraw: () => this.redraw(),
    closed: () => this.closed,
    interrupted: () => this.opts.style.dim("(interrupted)"),
  });
  private busyInterrupt: (() => void) | undefined;
  private onLeave: (() => void) | undefined;
  private lastCtrlC = -Infinity;
  private lastEsc = -Infinity;
  private closed = false;
  private readonly onResize = () => this.area.resized();

  constructor(private readonly opts: TerminalOptions) {
    super();
    this.editor = new LineEditor(opts.history);
    this.tab = new TabCompletion(opts.completer, () => this.redraw());
    this.input = new KeyInput((key) => this.key(key));
    process.stdout.on("resize", this.onResize);
    // A SIGINT from outside (kill -INT) counts as a Ctrl-C press.
    setInterruptHandler(() => this.key({ kind: "ctrl-c" }));
    this.redraw();
  }

  /** The next input: a queued one first, else the next one submitted; null when the user leaves. */
  readLine(): Promise<string | null> {
    if (this.closed) return Promise.resolve(null);
    const queued = this.queue.shift();
    if (queued !== undefined) {
      this.echo(queued);
      return Promise.resolve(queued);
    }
    return new Promise((resolve) => {
      this.reader = resolve;
      this.redraw();
    });
  }

  /**
   * Asks `prompt` on the prompt's row, after `body` (printed for good); the typed answer, or null
   * on Esc / Ctrl-C. Questions from concurrent askers (a tool's permission, a server's sampling or
   * elicitation) are asked one after the other. `initial` is pre-filled, editable text. Answers are not kept in history.
   */
  ask(prompt: string, body: string[] = [], initial = ""): Promise<string | null> {
    return this.dialog((ask) => ask(prompt, body, initial));
  }

  /** Runs `run` with the question row to itself, other askers waiting (see Questions.dialog). */
  dialog<T>(run: (ask: Ask) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.questions.dialog(run, signal);
  }

  /**
   * Runs a picker on the question row, held as a dialog is (other askers wait): keys go to
   * `picker.key` until it returns a result, and its lines are drawn in place of the prompt. Null
   * when Ctrl-C or the terminal's closing ends it first.
   */
  pick<T>(picker: { lines(): string[]; key(key: Key): T | undefined }): Promise<T | null> {
    return this.dialog(
      () =>
        new Promise<T | null>((resolve) => {
          if (this.closed) return resolve(null);
          const end = (result: T | null) => {
            this.picker = undefined;
            resolve(result);
            this.redraw();
          };
          this.picker = {
            lines: () => picker.lines(),
            key: (key) => {
              const result = picker.key(key);
              if (result !== undefined) end(result);
            },
            cancel: () => end(null),
          };
          this.redraw();
        }),
    );
  }

  /** True while the prompt waits for input and nothing is typed: a background notice may go to the model now. */
  get idleAndEmpty(): boolean {
    return this.reader !== undefined && !this.busyInterrupt && this.editor.text === "" && !this.questions.current && !this.picker;
  }

  /** Ends the pending readLine with "" (nothing typed), so the session can run a background notice's turn. */
  wakeReader(): void {
    if (this.idleAndEmpty) this.settleReader("");
  }

  /** A turn runs: Esc and Ctrl-C call `onInterrupt`; a double Ctrl-C calls `onLeave`. */
  busy(onInterrupt: () => void, onLeave: () => void): void {
    this.busyInterrupt = onInterrupt;
    this.onLeave = onLeave;
  }

  /** The turn ended. */
  idle(): void {
    this.busyInterrupt = undefined;
    this.onLeave = undefined;
    this.status = undefined;
    this.activity = [];
    this.pending = [];
    this.redraw();
  }

  /** Erases the live area, restores the terminal and stops listening. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    setInterruptHandler(undefined);
    process.stdout.off("resize", this.onResize);
    clearTimeout(this.hintTimer);
    this.area.clear();
    this.input.close();
    this.settleReader(null);
    this.picker?.cancel();
    this.questions.drop();
  }

  private key(key: Key): void {
    if (this.closed) return;
    if (this.afterAnswer) return void this.afterAnswer.push(key);
    if (key.kind !== "tab") this.tab.dismiss();
    if (key.kind === "ctrl-c") return this.ctrlC();
    if (key.kind === "ctrl-z") return this.suspend();
    if (this.picker) {
      this.picker.key(key);
      return this.redraw();
    }
    const q = this.questions.current;
    if (q) {
      if (key.kind === "escape") return this.answer(null);
      if (key.kind === "enter") return this.answer(q.editor.take());
      this.edit(q.editor, key);
      return this.redraw();
    }
    switch (key.kind) {
      case "escape":
        // Esc twice on an empty input opens /rewind (Claude Code's key).
        if (!this.busyInterrupt && this.reader && !this.editor.text && performance.now() - this.lastEsc < DOUBLE_PRESS_MS) {
          this.lastEsc = -Infinity;
          this.echo("/rewind");
          this.settleReader("/rewind");
        } else {
          this.lastEsc = performance.now();
          this.interrupt();
        }
        break;
      case "enter": {
        const line = this.editor.enter();
        if (line !== undefined) this.submit(line);
        break;
      }
      case "ctrl-d":
        if (this.editor.text) this.editor.delete();
        else if (!this.busyInterrupt) this.settleReader(null);
        break;
      case "tab":
        this.tab.press(this.editor, () => !this.closed && !this.questions.current);
        break;
      case "shift-tab":
        this.opts.onShiftTab?.();
        break;
      default:
        this.edit(this.editor, key);
    }
    this.redraw();
  }

  /**
   * Answers the question showing. Keys that came in the same read (typed ahead: `a⏎y⏎`) wait one
   * turn of the event loop, so that a question asked again at once (an unclear answer) gets them
   * rather than the prompt, which would send them to the model as a message.
   */
  private answer(line: string | null): void {
    this.questions.answer(line);
    this.afterAnswer = [];
    setImmediate(() => {
      const keys = this.afterAnswer ?? [];
      this.afterAnswer = undefined;
      for (const k of keys) this.key(k);
    });
  }

  /** Ctrl-Z: the live area is erased for the shell, and drawn again on return. */
  private suspend(): void {
    this.area.clear();
    this.input.suspend();
    this.redraw();
  }

  private edit(editor: LineEditor, key: Key): void {
    if (key.kind === "ctrl-l") this.area.clearScreen();
    else applyEditingKey(editor, key);
  }

  private submit(line: string): void {
    if (!line.trim()) return;
    this.editor.remember(line);
    if (this.reader && !this.busyInterrupt) {
      this.echo(line);
      this.settleReader(line);
    } else {
      this.queue.push(line);
    }
  }

  /** The submitted input stays in the conversation, as typed. */
  private echo(line: string): void {
    this.area.print(PROMPT + line.replace(/\n/g, `\n${CONTINUATION}`));
  }

  private interrupt(): void {
    if (!this.busyInterrupt) return;
    // Inputs queued behind an interrupted turn go back to the prompt instead of being sent.
    if (this.queue.length) {
      const rest = this.editor.text;
      this.editor.set([...this.queue.splice(0), ...(rest ? [rest] : [])].join("\n"));
    }
    this.busyInterrupt();
  }

  private ctrlC(): void {
    const now = performance.now();
    if (now - this.lastCtrlC < DOUBLE_PRESS_MS) {
      this.lastCtrlC = -Infinity;
      if (this.onLeave) return this.onLeave();
      return this.settleReader(null);
    }
    this.lastCtrlC = now;
    if (this.picker) this.picker.cancel();
    else if (this.questions.current) this.questions.answer(null);
    else if (this.busyInterrupt) this.interrupt();
    else if (this.editor.text) this.editor.clear();
    this.showHint("(press Ctrl-C again to exit, or Ctrl-D)");
  }

  private settleReader(line: string | null): void {
    const reader = this.reader;
    this.reader = undefined;
    reader?.(line);
  }

  protected redraw(): void {
    if (this.closed) return;
    if (this.picker) return this.draw({ picker: this.picker.lines() });
    const { style } = this.opts;
    const q = this.questions.current;
    // The permission mode, with the status lines just above the prompt (the prompt stays the last row).
    const mode = q ? undefined : this.opts.modeLine?.();
    const above = mode ? [style.dim(mode)] : [];
    for (const queued of this.queue) above.push(style.dim(`  ↳ queued: ${queued.split("\n")[0]}${queued.includes("\n") ? " …" : ""}`));
    const editor = q?.editor ?? this.editor;
    const below = this.tab.rows(process.stdout.columns ?? 80).map(style.dim);
    if (this.hint) below.push(style.dim(this.hint));
    this.draw({ question: q !== undefined, above, first: q?.prompt ?? PROMPT, text: editor.text, cursor: editor.cursor, below });
  }
}
