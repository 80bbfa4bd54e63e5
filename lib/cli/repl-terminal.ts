/**
 * The interactive session's terminal, over node:readline (line editing, history, Tab completion).
 * Two modes:
 * - idle: readline owns the terminal in raw mode; Ctrl-C clears the line, or on an empty line
 *   arms exit ("press Ctrl-C again"); a second Ctrl-C exits, as does one right after a Ctrl-C
 *   that interrupted a turn; Ctrl-D exits.
 * - busy (a turn is running): readline is paused and the terminal is back in cooked mode, so
 *   Ctrl-C arrives as SIGINT and interrupts the turn, and typed lines wait for the next prompt.
 *   Questions (permission prompts) briefly hand the terminal back to readline.
 */
import * as readline from "node:readline";
import type { Completer } from "./repl-complete.ts";
import { setInterruptHandler } from "../agent/lifecycle.ts";

export const PROMPT = "> ";
/** Two Ctrl-C presses this close together (ms) leave, even when the first interrupted a turn. */
export const DOUBLE_PRESS_MS = 1000;

export interface TerminalOptions {
  completer: Completer;
  /** Saved history, newest first. */
  history: string[];
  historySize: number;
  /** Writes a note for the user (the "press Ctrl-C again" hint). */
  note(line: string): void;
}

interface Pending {
  kind: "input" | "question";
  resolve(line: string | null): void;
}

/** The prompt and its modes (see the file comment); one per session, closed with `close()`. */
export class Terminal {
  private readonly rl: readline.Interface;
  private pending: Pending | undefined;
  private busyInterrupt: (() => void) | undefined;
  /** A Ctrl-C on an empty prompt arms exit; submitting a line disarms it. */
  private armed = false;
  /** When Ctrl-C last interrupted a turn (performance.now() ms): a quick second press leaves. */
  private lastTurnInterrupt = -Infinity;
  private closed = false;
  private readonly onSignal = () => this.interrupt();
  private readonly restore = () => this.setRaw(false);

  constructor(private readonly opts: TerminalOptions) {
    this.rl = readline.createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: true,
      completer: opts.completer,
      history: opts.history,
      historySize: opts.historySize,
      removeHistoryDuplicates: true,
      prompt: PROMPT,
    });
    this.rl.on("line", (line) => this.settle(line));
    this.rl.on("close", () => {
      this.closed = true;
      this.settle(null);
    });
    this.rl.on("SIGINT", this.onSignal);
    // In cooked mode (busy) Ctrl-C arrives as a process signal; lifecycle's handler passes it here.
    setInterruptHandler(this.onSignal);
    process.on("exit", this.restore);
  }

  /** The next submitted line; null when the user leaves (Ctrl-D, or Ctrl-C twice). */
  readLine(): Promise<string | null> {
    return this.wait("input", PROMPT).then((line) => {
      if (line !== null) this.armed = false;
      return line;
    });
  }

  /** During a turn: asks `question`; the typed line, or null on Ctrl-C. Not kept in history. */
  async ask(question: string): Promise<string | null> {
    this.setRaw(true);
    const line = await this.wait("question", question);
    if (line !== null) {
      const history = (this.rl as unknown as { history?: string[] }).history;
      if (history?.[0] === line) history.shift();
    }
    if (this.busyInterrupt && !this.closed) this.pauseForTurn();
    return line;
  }

  /**
   * Runs `write` (which prints whole lines) without breaking the prompt: while the user is at the
   * prompt, the lines go above it and the prompt and typed text are redrawn.
   */
  printAbove(write: () => void): void {
    if (this.pending?.kind !== "input" || this.busyInterrupt) return write();
    process.stdout.write("\r\x1b[K");
    write();
    this.rl.prompt(true);
  }

  /** Enters busy mode; `onInterrupt` runs on every Ctrl-C until `idle()`. */
  busy(onInterrupt: () => void): void {
    this.busyInterrupt = onInterrupt;
    this.pauseForTurn();
  }

  /** Leaves busy mode (the next readLine shows the prompt again). */
  idle(): void {
    this.busyInterrupt = undefined;
    this.setRaw(true);
  }

  /** Restores the terminal and stops listening. */
  close(): void {
    setInterruptHandler(undefined);
    process.off("exit", this.restore);
    if (!this.closed) this.rl.close();
    this.setRaw(false);
  }

  private wait(kind: Pending["kind"], prompt: string): Promise<string | null> {
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.pending = { kind, resolve };
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    });
  }

  private settle(line: string | null): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve(line);
  }

  private interrupt(): void {
    if (this.pending?.kind === "question") {
      this.clearLine();
      process.stdout.write("\n");
      this.settle(null);
      return;
    }
    if (this.busyInterrupt) {
      this.lastTurnInterrupt = performance.now();
      this.busyInterrupt();
      return;
    }
    if (!this.pending) return;
    const typed = (this.rl as unknown as { line: string }).line;
    this.clearLine();
    process.stdout.write("\n");
    if (typed) {
      this.rl.prompt();
    } else if (this.armed || performance.now() - this.lastTurnInterrupt < DOUBLE_PRESS_MS) {
      this.settle(null);
    } else {
      this.armed = true;
      this.opts.note("(press Ctrl-C again to exit, or Ctrl-D)");
      this.rl.prompt();
    }
  }

  private clearLine(): void {
    const rl = this.rl as unknown as { line: string; cursor: number };
    rl.line = "";
    rl.cursor = 0;
  }

  private pauseForTurn(): void {
    this.rl.pause();
    this.setRaw(false);
  }

  private setRaw(on: boolean): void {
    if (process.stdin.isTTY) process.stdin.setRawMode(on && !this.closed);
  }
}
