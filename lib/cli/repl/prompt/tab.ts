/**
 * Tab at the prompt: asks the completer (complete.ts) about the input, applies its answer to
 * the editor, and keeps the candidates listed under the prompt until the next key. An answer that
 * comes later (a server asked with `completion/complete`) applies only to the input it was asked for.
 */
import { type Completer, type Completion, completionRows } from "./complete.ts";
import type { LineEditor } from "./line-editor.ts";

export class TabCompletion {
  /** Listed under the prompt; emptied by any key but Tab (`dismiss`). */
  private candidates: string[] = [];

  /** `changed` redraws the prompt after a late answer was applied. */
  constructor(
    private readonly completer: Completer,
    private readonly changed: () => void,
  ) {}

  /** Tab with `editor`'s cursor at the end of its text; `live()` says whether a late answer may still apply. */
  press(editor: LineEditor, live: () => boolean): void {
    const line = editor.text;
    if (editor.cursor !== line.length) return;
    const result = this.completer(line);
    if (!(result instanceof Promise)) return this.apply(editor, result);
    void result.then((completion) => {
      if (!live() || editor.text !== line || editor.cursor !== line.length) return;
      this.apply(editor, completion);
      this.changed();
    });
  }

  /** A key other than Tab: the list goes. */
  dismiss(): void {
    this.candidates = [];
  }

  /** The rows listing the candidates across `columns` cells; none when there is no list. */
  rows(columns: number): string[] {
    return this.candidates.length ? completionRows(this.candidates, columns) : [];
  }

  private apply(editor: LineEditor, { replaced, insert, shown }: Completion): void {
    if (insert.startsWith(replaced)) editor.insert(insert.slice(replaced.length));
    // A server's value need not extend what was typed: the one candidate then replaces it.
    else if (!shown.length) editor.replaceBefore(replaced.length, insert);
    this.candidates = shown;
  }
}
