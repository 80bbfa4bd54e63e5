/**
 * The status line under the conversation while a turn runs:
 * `⠹ Thinking… (3s · ↓ 120 tokens · esc to interrupt)`, redrawn by a timer so the spinner and
 * the elapsed seconds move even when nothing arrives, and removed when the turn ends.
 */
import type { Style } from "./style.ts";

/** Spinner frames, and how often (ms) the line is redrawn. */
export const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
export const TICK_MS = 100;
/** Streamed characters per output token, for the running count until the API reports usage. */
const CHARS_PER_TOKEN = 4;

/** The status of one turn; `show` draws a line (undefined erases it). */
export class TurnStatus {
  private phase = "Thinking…";
  /** What Esc does now: it interrupts the turn, except at a question, which it cancels. */
  private hint = "esc to interrupt";
  private started = 0;
  private timer: Timer | undefined;
  private frame = 0;
  /** Output tokens of finished model calls, and characters streamed by the current one. */
  private tokens = 0;
  private streamed = 0;

  constructor(
    private readonly show: (line: string | undefined) => void,
    private readonly style: Style,
  ) {}

  /** The turn started: the line appears and starts moving. */
  start(): void {
    this.started = performance.now();
    this.tokens = this.streamed = 0;
    this.phase = "Thinking…";
    clearInterval(this.timer);
    this.timer = setInterval(() => this.draw(), TICK_MS);
    this.draw();
  }

  /** What is happening now: `Thinking…`, `Responding…`, `Running Bash(npm test)…`. */
  set(phase: string): void {
    this.phase = phase;
    this.hint = "esc to interrupt";
    this.draw();
  }

  /** A question waits for the user (a permission, a server's form): Esc answers it, not the turn. */
  asking(phase: string): void {
    this.set(phase);
    this.hint = "esc to cancel";
    this.draw();
  }

  /** Model text arrived. */
  streamedText(delta: string): void {
    this.streamed += delta.length;
    if (this.phase === "Thinking…") this.phase = "Responding…";
  }

  /** A model call finished, with its reported output tokens. */
  callDone(outputTokens: number | undefined): void {
    this.tokens += outputTokens ?? Math.ceil(this.streamed / CHARS_PER_TOKEN);
    this.streamed = 0;
  }

  /** The turn ended: the line goes. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.show(undefined);
  }

  /** The line as it is drawn now. */
  line(now = performance.now()): string {
    const seconds = Math.floor((now - this.started) / 1000);
    const tokens = this.tokens + Math.ceil(this.streamed / CHARS_PER_TOKEN);
    const spinner = SPINNER[this.frame % SPINNER.length]!;
    const detail = [`${seconds}s`, ...(tokens ? [`↓ ${tokens} tokens`] : []), this.hint].join(" · ");
    return `${this.style.cyan(spinner)} ${this.phase} ${this.style.dim(`(${detail})`)}`;
  }

  private draw(): void {
    if (!this.timer) return;
    this.frame++;
    this.show(this.line());
  }
}
