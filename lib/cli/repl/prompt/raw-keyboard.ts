/**
 * The interactive session's keyboard: stdin in raw mode with the keyboard protocols on (KEYS_ON),
 * its bytes decoded into keys by key-decoder.ts. The terminal is given back (raw mode off, KEYS_OFF)
 * on `close()`, while the session is suspended (`suspend()`), or at exit if the session never
 * closed it: the shell behind it must get plain keys again.
 */
import { ESC_TIMEOUT_MS, KEYS_OFF, KEYS_ON, KeyDecoder, type Key } from "./key-decoder.ts";

export class KeyInput {
  private readonly decoder = new KeyDecoder();
  private readonly utf8 = new TextDecoder();
  private escTimer: Timer | undefined;
  private readonly onData = (chunk: Buffer) => this.feed(this.utf8.decode(chunk, { stream: true }));
  private readonly restore = () => this.restoreTerminal();

  /** Starts listening at once; every decoded key goes to `onKey`, in order. */
  constructor(private readonly onKey: (key: Key) => void) {
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    process.stdout.write(KEYS_ON);
    process.stdin.on("data", this.onData);
    process.stdin.resume();
    process.on("exit", this.restore);
  }

  /** Stops listening and restores the terminal. */
  close(): void {
    process.off("exit", this.restore);
    process.stdin.off("data", this.onData);
    clearTimeout(this.escTimer);
    this.restoreTerminal();
    process.stdin.pause();
  }

  /**
   * Ctrl-Z: gives the terminal back and stops the process (SIGTSTP, as the terminal would have
   * sent it outside raw mode); takes the terminal again once it runs on (`fg`). Without job
   * control the signal is discarded and the session simply goes on.
   */
  suspend(): void {
    this.restoreTerminal();
    // Stops before kill() returns (a signal sent to oneself is delivered at once); back here means continued.
    process.kill(process.pid, "SIGTSTP");
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    process.stdout.write(KEYS_ON);
  }

  private restoreTerminal(): void {
    process.stdout.write(KEYS_OFF);
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
  }

  private feed(text: string): void {
    clearTimeout(this.escTimer);
    for (const key of this.decoder.feed(text)) this.onKey(key);
    // A lone ESC may be the start of a sequence: it counts as the Esc key only if nothing follows soon.
    if (this.decoder.waiting) {
      this.escTimer = setTimeout(() => {
        for (const key of this.decoder.flush()) this.onKey(key);
      }, ESC_TIMEOUT_MS);
    }
  }
}
