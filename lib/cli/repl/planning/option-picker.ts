/**
 * One multiple-choice question as the session's picker holds it (ask-user.ts draws it and feeds
 * it keys): the options and an "Other" row for the user's own words; Up/Down move, Space ticks an
 * option of a multiSelect question, Enter answers (the highlighted option, the ticked ones, or the
 * typed text), Esc dismisses. Pure: keys in, lines and the answer out.
 */
import type { Key } from "../prompt/key-decoder.ts";
import { LineEditor } from "../prompt/line-editor.ts";
import { applyEditingKey } from "../prompt/key-bindings.ts";
import type { UserQuestion } from "../../../tools/ask-user/ask-user-question.ts";
import type { Style } from "../../ui/style.ts";
import { terminalText } from "../../../shared/terminal-text.ts";

export type PickerResult = { answer: string } | { dismissed: true } | undefined;

const clean = (s: string) => terminalText(s, { oneLine: true });

export class OptionPicker {
  cursor = 0;
  readonly ticked = new Set<number>();
  readonly other = new LineEditor();

  constructor(readonly q: UserQuestion) {}

  private get onOther(): boolean {
    return this.cursor === this.q.options.length;
  }

  /** One key; the question's result once it has one. */
  key(key: Key): PickerResult {
    const rows = this.q.options.length + 1;
    switch (key.kind) {
      case "escape":
        return { dismissed: true };
      case "up":
        this.cursor = (this.cursor + rows - 1) % rows;
        return undefined;
      case "down":
      case "tab":
        this.cursor = (this.cursor + 1) % rows;
        return undefined;
      case "enter":
        return this.enter();
    }
    if (this.onOther) {
      applyEditingKey(this.other, key);
      return undefined;
    }
    if (key.kind === "text" && key.text === " " && this.q.multiSelect) {
      if (this.ticked.has(this.cursor)) this.ticked.delete(this.cursor);
      else this.ticked.add(this.cursor);
    } else if (key.kind === "text" && /^[1-4]$/.test(key.text) && Number(key.text) <= this.q.options.length) {
      this.cursor = Number(key.text) - 1;
    }
    return undefined;
  }

  private enter(): PickerResult {
    const own = this.other.text.trim();
    if (!this.q.multiSelect) {
      if (this.onOther) return own ? { answer: own } : undefined;
      return { answer: this.q.options[this.cursor]!.label };
    }
    const labels = [...this.ticked].sort((a, b) => a - b).map((i) => this.q.options[i]!.label);
    if (own) labels.push(own);
    if (!labels.length && !this.onOther) labels.push(this.q.options[this.cursor]!.label);
    return labels.length ? { answer: labels.join(", ") } : undefined;
  }

  /** The question as drawn: header, question, options (the cursor's marked), the Other row, a hint. */
  lines(style: Style, step: string): string[] {
    const out = [`${style.bold(`[${clean(this.q.header)}]`)} ${clean(this.q.question)}${step}`];
    this.q.options.forEach((o, i) => {
      const here = i === this.cursor ? style.cyan("❯") : " ";
      const box = this.q.multiSelect ? (this.ticked.has(i) ? "[x] " : "[ ] ") : "";
      out.push(
        `${here} ${i + 1}. ${box}${i === this.cursor ? style.bold(clean(o.label)) : clean(o.label)}${o.description ? style.dim(` — ${clean(o.description)}`) : ""}`,
      );
    });
    const here = this.onOther ? style.cyan("❯") : " ";
    out.push(`${here} ${this.q.options.length + 1}. Other: ${clean(this.other.text)}${this.onOther ? "▏" : ""}`);
    out.push(style.dim(this.q.multiSelect ? "↑/↓ move · Space ticks · Enter answers · Esc dismisses" : "↑/↓ move · Enter answers · Esc dismisses"));
    return out;
  }
}
