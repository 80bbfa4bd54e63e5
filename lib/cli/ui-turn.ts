/**
 * What a turn looks like on the terminal: the model's text streamed to stdout as it arrives, one
 * stderr line per tool call and one per result (ui-tool-lines.ts), diagnostics on stderr. Both
 * streams share the screen, so a stderr line first ends any half-written stdout line.
 */
import type { ToolResultContentBlock, ToolUseBlock } from "../agent/messages.ts";
import type { Style } from "./ui-style.ts";
import { MAX_PREVIEW_CHARS, oneLine, toolResultLine, toolStartLine } from "./ui-tool-lines.ts";

export interface Writer {
  write(s: string): unknown;
  /** Terminal width, when the stream is a terminal. */
  columns?: number;
}

/** Draws turns: model text on `out` (stdout), tool and diagnostic lines on `err` (stderr). */
export class TurnView {
  /** stdout holds text not yet ended by a newline. */
  private midLine = false;
  /** The call that printed the last line on screen (its next line then needs no label). */
  private lastCall: string | undefined;

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
    this.lastCall = undefined;
  };

  /** One line on stderr, below any text in progress. */
  readonly line = (line: string): void => {
    this.endLine();
    this.err.write(line + "\n");
    this.lastCall = undefined;
  };

  /** `● Name(args)` on stderr (the loop's onToolStart hook). */
  readonly toolStart = (call: ToolUseBlock): void => {
    this.line(toolStartLine(call.name, call.input, this.cwd, this.style));
    this.lastCall = call.id;
  };

  /** A progress report of a running call (MCP notifications/progress; the loop's onToolProgress hook), dim. */
  readonly toolProgress = (call: ToolUseBlock, message: string): void => {
    const label = this.lastCall === call.id ? "" : `${call.name}: `;
    this.line(this.style.dim(`  ⋯  ${label}${oneLine(message, MAX_PREVIEW_CHARS)}`));
    this.lastCall = call.id;
  };

  /** The result preview on stderr (the loop's onToolEnd hook), labelled when other lines came between. */
  readonly toolEnd = (call: ToolUseBlock, result: ToolResultContentBlock): void => {
    const label = this.lastCall === call.id ? undefined : call.name;
    // Keep the preview on one screen row: room for the marker, the label and "(+N lines)".
    const columns = this.err.columns;
    const maxChars = columns ? Math.max(20, Math.min(MAX_PREVIEW_CHARS, columns - 24 - (label?.length ?? 0))) : MAX_PREVIEW_CHARS;
    this.line(toolResultLine(result.content, result.is_error === true, this.style, { label, maxChars }));
  };

  /** Ends a half-written stdout line (before a prompt, a question or a stderr line). */
  endLine(): void {
    if (!this.midLine) return;
    this.out.write("\n");
    this.midLine = false;
  }
}
