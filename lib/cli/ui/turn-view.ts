/**
 * What a turn looks like on the terminal: the model's text rendered as it streams (whole lines
 * only, printed above the live area), one line per tool call and a few-line preview of its result
 * (tool-lines.ts), a running tool's progress updated in place, and the status line
 * (turn-status.ts) saying what happens now.
 */
import type { ToolResultContentBlock, ToolUseBlock } from "../../agent/messages.ts";
import type { Style } from "./style.ts";
import { MAX_PREVIEW_CHARS, oneLine, toolResultPreview, toolStartLine } from "./tool-lines.ts";
import type { TurnStatus } from "./turn-status.ts";

/** Streamed text in, printable whole lines out (Markdown rendering, or plain lines). */
export interface TextRenderer {
  /** Adds a delta; returns what is ready to print (whole lines, maybe ""). */
  push(delta: string): string;
  /** The rest, at the end of a reply or before a tool line. */
  end(): string;
  /** What is still arriving, rendered, to show live until it is printed. */
  pending?(): string[];
}

/** Where a turn is drawn (the Terminal). */
export interface TurnScreen {
  print(text: string): void;
  setActivity(lines: string[]): void;
  /** The reply's block still arriving (live, above the status line). */
  setPending(lines: string[]): void;
  readonly columns: number;
}

/** Plain text: whole lines as they complete. */
export class PlainLines implements TextRenderer {
  private partial = "";
  push(delta: string): string {
    const s = this.partial + delta;
    const nl = s.lastIndexOf("\n");
    this.partial = s.slice(nl + 1);
    return nl < 0 ? "" : s.slice(0, nl + 1);
  }
  end(): string {
    const rest = this.partial;
    this.partial = "";
    return rest ? rest + "\n" : "";
  }
}

/** Draws turns on `screen`; `describe` gives a tool call's label for the status line. */
export class TurnView {
  /** The call that printed the last line on screen (its next line then needs no label). */
  private lastCall: string | undefined;
  private running = new Map<string, string>();
  /** What the status line says about the tools while no question is pending. */
  private busy = "Thinking…";

  constructor(
    private readonly screen: TurnScreen,
    private readonly style: Style,
    cwd: string,
    private readonly renderer: TextRenderer,
    readonly status: TurnStatus,
    private readonly describe: (call: ToolUseBlock) => string = (call) => toolStartLine(call.name, call.input, cwd, style),
    /** A call's short name in the status line and labels: `fx › echo` for an MCP tool, not its API name. */
    private readonly nameOf: (call: ToolUseBlock) => string = (call) => call.name,
  ) {}

  /** A streamed text delta from the model (the loop's onText hook). */
  readonly text = (delta: string): void => {
    if (!delta) return;
    this.status.streamedText(delta);
    const ready = this.renderer.push(delta);
    if (ready) this.screen.print(ready);
    if (this.renderer.pending) this.screen.setPending(this.renderer.pending());
    this.lastCall = undefined;
  };

  /** One line above the live area, after any text in progress. */
  readonly line = (line: string): void => {
    this.endLine();
    this.screen.print(line);
    this.lastCall = undefined;
  };

  /** `● Name(args)` (the loop's onToolStart hook). */
  readonly toolStart = (call: ToolUseBlock): void => {
    const label = this.describe(call);
    this.line(label);
    this.lastCall = call.id;
    this.running.set(call.id, "");
    this.setBusy(`Running ${this.nameOf(call)}…`);
  };

  /** A progress report of a running call (MCP notifications/progress): one line, updated in place. */
  readonly toolProgress = (call: ToolUseBlock, message: string): void => {
    this.running.set(call.id, `  ⋯  ${this.running.size > 1 ? `${this.nameOf(call)}: ` : ""}${oneLine(message, MAX_PREVIEW_CHARS)}`);
    this.drawActivity();
  };

  /** The result preview (the loop's onToolEnd hook), labelled when other lines came between. */
  readonly toolEnd = (call: ToolUseBlock, result: ToolResultContentBlock): void => {
    this.running.delete(call.id);
    this.drawActivity();
    const label = this.lastCall === call.id ? undefined : this.nameOf(call);
    const maxChars = Math.max(20, Math.min(MAX_PREVIEW_CHARS, this.screen.columns - 12 - (label?.length ?? 0)));
    this.line(toolResultPreview(result.content, result.is_error === true, this.style, { label, maxChars }));
    this.setBusy(this.running.size ? `Running ${this.running.size} tools…` : "Thinking…");
  };

  /** Back to what the tools are doing, once a question (a permission prompt) has been answered. */
  readonly resumeStatus = (): void => {
    this.status.set(this.busy);
  };

  private setBusy(text: string): void {
    this.busy = text;
    this.status.set(text);
  }

  /** A model call finished (the loop's onAssistant hook). */
  readonly callDone = (outputTokens: number | undefined): void => {
    this.endLine();
    this.status.callDone(outputTokens);
  };

  /** Prints any text still held by the renderer. */
  endLine(): void {
    const rest = this.renderer.end();
    if (this.renderer.pending) this.screen.setPending([]);
    if (rest) this.screen.print(rest);
  }

  private drawActivity(): void {
    this.screen.setActivity([...this.running.values()].filter(Boolean).map((l) => this.style.dim(l)));
  }
}
