/**
 * The questions the interactive session asks on the prompt's row (a tool's permission, a server's
 * sampling consent, an elicitation form): one shows at a time, and a dialog (several questions,
 * a whole form) holds the row until it settles, so concurrent askers never interleave. Keys and
 * drawing stay the terminal's (terminal.ts): it sends keys to `current` and draws it.
 */
import { LineEditor } from "./line-editor.ts";

/** One question of a dialog: `prompt` after `body` (printed for good), `initial` pre-filled; the typed line, or null when interrupted or withdrawn. */
export type Ask = (prompt: string, body?: string[], initial?: string) => Promise<string | null>;

export interface Question {
  prompt: string;
  editor: LineEditor;
  resolve(line: string | null): void;
}

/** What the questions need from the terminal. */
export interface QuestionScreen {
  /** Prints lines above the live area, for good. */
  print(text: string): void;
  redraw(): void;
  /** True once the terminal is closed: questions then resolve null at once. */
  closed(): boolean;
  /** What an interrupted question is left showing in place of an answer. */
  interrupted(): string;
}

export class Questions {
  /** The question showing, if any: it takes the keys and is drawn in place of the prompt. */
  current: Question | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly screen: QuestionScreen) {}

  /**
   * Runs `run` with the row to itself: other dialogs wait until it settles, in the order they
   * came. Once `signal` fires, the question showing is withdrawn and later ones resolve null at once.
   */
  dialog<T>(run: (ask: Ask) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const ask: Ask = (prompt, body = [], initial = "") => {
      if (this.screen.closed() || signal?.aborted) return Promise.resolve(null);
      if (body.length) this.screen.print(body.join("\n"));
      return new Promise<string | null>((resolve) => {
        const editor = new LineEditor();
        editor.set(initial);
        const withdraw = () => this.current?.editor === editor && this.answer(null);
        signal?.addEventListener("abort", withdraw, { once: true });
        this.current = { prompt, editor, resolve: (line) => (signal?.removeEventListener("abort", withdraw), resolve(line)) };
        this.screen.redraw();
      });
    };
    const held = this.tail.then(() => run(ask));
    this.tail = held.catch(() => null);
    return held;
  }

  /** Settles the question showing with `line` (null: interrupted), leaving it printed with its answer. */
  answer(line: string | null): void {
    const q = this.current;
    if (!q) return;
    this.current = undefined;
    this.screen.print(`${q.prompt}${line ?? this.screen.interrupted()}`);
    q.resolve(line);
    this.screen.redraw();
  }

  /** The terminal closed: the question showing resolves null, printing nothing. */
  drop(): void {
    this.current?.resolve(null);
    this.current = undefined;
  }
}
