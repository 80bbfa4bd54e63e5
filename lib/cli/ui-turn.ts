/**
 * What a turn looks like on the terminal: the model's text streamed to stdout as it arrives, one
 * stderr line per tool call and one per result (ui-tool-lines.ts), diagnostics on stderr. Both
 * streams share the screen, so a stderr line first ends any half-written stdout line.
 */
import type { ToolResultContentBlock, ToolUseBlock } from "../agent/messages.ts";
import type { Style } from "./ui-style.ts";
import { toolResultLine, toolStartLine } from "./ui-tool-lines.ts";

export interface Writer {
  write(s: string): unknown;
}

export class TurnView {
  /** stdout holds text not yet ended by a newline. */
  private midLine = false;
  /** The call whose start line is the last line on screen (its result then needs no label). */
  private lastStarted: string | undefined;

  constructor(
    private readonly out: Writer,
    private readonly err: Writer,
    private readonly style: Style,
    private readonly cwd: string,
  ) {}

  /** A streamed text delta from the model (the loop's onText hook). */
  readonly text = (delta: string): void => {
    if (!delta) return;
    this.out.write(delta);
    this.midLine = !delta.endsWith("\n");
    this.lastStarted = undefined;
  };

  /** One line on stderr, below any text in progress. */
  readonly line = (line: string): void => {
    this.endLine();
    this.err.write(line + "\n");
    this.lastStarted = undefined;
  };

  readonly toolStart = (call: ToolUseBlock): void => {
    this.line(toolStartLine(call.name, call.input, this.cwd, this.style));
    this.lastStarted = call.id;
  };

  readonly toolEnd = (call: ToolUseBlock, result: ToolResultContentBlock): void => {
    const label = this.lastStarted === call.id ? undefined : call.name;
    this.line(toolResultLine(result.content, result.is_error === true, this.style, label));
  };

  /** Ends a half-written stdout line (before a prompt, a question or a stderr line). */
  endLine(): void {
    if (!this.midLine) return;
    this.out.write("\n");
    this.midLine = false;
  }
}
