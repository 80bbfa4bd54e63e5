/**
 * Drives a program in a pseudo-terminal drawn in process: the real binary under Bun's `spawn`
 * `terminal` (a real pty: raw mode, keys, window size), its output fed to a headless xterm.js
 * terminal, and the screen read from that terminal's buffer. Waiting is event-driven: every chunk
 * the program draws re-checks the waiters, so a passing test waits only for its screen and no
 * poll runs. The same methods as TmuxSession (tmux.ts), which stays for what only a real terminal
 * multiplexer shows (clipboard buffers, suspend under a shell, extended keys).
 */
import { Terminal } from "@xterm/headless";
import { WAIT_MS } from "./tmux.ts";

export interface PtyOptions {
  /** Program and arguments, run directly (no shell). */
  command: string[];
  cwd: string;
  /** The whole environment of the program (nothing is inherited). */
  env: Record<string, string>;
  width?: number;
  height?: number;
}

/** tmux key names the tests use, as the bytes a terminal sends for them. */
const KEYS: Record<string, string> = {
  Enter: "\r",
  Tab: "\t",
  BTab: "\x1b[Z",
  Escape: "\x1b",
  BSpace: "\x7f",
  Space: " ",
  Up: "\x1b[A",
  Down: "\x1b[B",
  Right: "\x1b[C",
  Left: "\x1b[D",
  Home: "\x1b[H",
  End: "\x1b[F",
  DC: "\x1b[3~",
  PPage: "\x1b[5~",
  NPage: "\x1b[6~",
  "M-Enter": "\x1b\r",
};

/** `C-a` … `C-z` and the few other names above; anything else is a test's mistake. */
function keyBytes(name: string): string {
  const known = KEYS[name];
  if (known !== undefined) return known;
  const ctrl = /^C-([a-z])$/.exec(name);
  if (ctrl) return String.fromCharCode(ctrl[1]!.charCodeAt(0) - 96);
  throw new Error(`pty-term: no bytes known for the key ${name}`);
}

type Waiter = () => void;

export class PtySession {
  private readonly waiters = new Set<Waiter>();
  private pending: Promise<void> = Promise.resolve();
  private status: number | string | undefined;

  private constructor(
    private readonly proc: Bun.Subprocess,
    private readonly xterm: Terminal,
    private readonly pty: { write(data: string): void; resize(cols: number, rows: number): void; close(): void },
  ) {
    this.xterm.onTitleChange((title) => {
      this.lastTitle = title;
    });
  }

  /** Starts `command` under a new pty of the given size, drawn into a headless terminal. */
  static async start(opts: PtyOptions): Promise<PtySession> {
    const cols = opts.width ?? 120;
    const rows = opts.height ?? 40;
    const xterm = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
    let session: PtySession | undefined;
    const early: Uint8Array[] = [];
    const proc = Bun.spawn(opts.command, {
      cwd: opts.cwd,
      env: opts.env,
      terminal: {
        cols,
        rows,
        data: (_t: unknown, chunk: Uint8Array) => (session ? session.draw(chunk) : early.push(chunk.slice())),
      },
    } as never) as Bun.Subprocess;
    session = new PtySession(proc, xterm, (proc as unknown as { terminal: PtySession["pty"] }).terminal);
    for (const chunk of early) session.draw(chunk);
    void proc.exited.then(async () => {
      session.status = proc.signalCode ? `signal ${proc.signalCode}` : (proc.exitCode ?? 0);
      await session.pending;
      session.wake();
    });
    return session;
  }

  /** Feeds one chunk to the emulator; waiters re-check once it is drawn. */
  private draw(chunk: Uint8Array): void {
    const data = chunk.slice();
    this.pending = this.pending.then(() => new Promise<void>((resolve) => this.xterm.write(data, resolve)));
    void this.pending.then(() => this.wake());
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Sends tmux key names (`Enter`, `C-c`, `Tab`, `Up`…). */
  async keys(...keys: string[]): Promise<void> {
    this.pty.write(keys.map(keyBytes).join(""));
  }

  /** Sends `raw` as it is, as a terminal sends an escape sequence. */
  async bytes(raw: string): Promise<void> {
    this.pty.write(raw);
  }

  /** Types `text` literally. */
  async type(text: string): Promise<void> {
    this.pty.write(text);
  }

  /**
   * Pastes `text` as a terminal paste: bracketed (ESC[200~ … ESC[201~) when the program asked for
   * bracketed paste; with `lfAsCr` each LF turned into CR, as a terminal's own paste does.
   */
  async paste(text: string, { lfAsCr = false } = {}): Promise<void> {
    await this.pending;
    const body = lfAsCr ? text.replace(/\n/g, "\r") : text;
    this.pty.write(this.xterm.modes.bracketedPasteMode ? `\x1b[200~${body}\x1b[201~` : body);
  }

  /** Resizes the terminal (the program gets SIGWINCH). */
  async resize(width: number, height: number): Promise<void> {
    this.xterm.resize(width, height);
    this.pty.resize(width, height);
  }

  /** The terminal's text, scrollback included, wrapped lines joined. */
  async screen(): Promise<string> {
    await this.pending;
    return this.text(0);
  }

  /** The rows on screen now, without the scrollback, wrapped lines joined. */
  async visible(): Promise<string> {
    await this.pending;
    return this.text(this.xterm.buffer.active.baseY);
  }

  private text(from: number): string {
    const buffer = this.xterm.buffer.active;
    const lines: string[] = [];
    for (let y = from; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && lines.length) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return `${lines.join("\n")}\n`;
  }

  /**
   * Resolves with the screen once `expected` (a substring, a pattern, or a predicate) matches it,
   * checked after every chunk drawn. @throws after `timeoutMs` with the last screen in the message.
   */
  async waitFor(expected: string | RegExp | ((screen: string) => boolean), timeoutMs = WAIT_MS, rows: "all" | "visible" = "all"): Promise<string> {
    const test =
      typeof expected === "function" ? expected : typeof expected === "string" ? (s: string) => s.includes(expected) : (s: string) => expected.test(s);
    const read = () => (rows === "visible" ? this.visible() : this.screen());
    const first = await read();
    if (test(first)) return first;
    return new Promise<string>((resolve, reject) => {
      let checking = false;
      let again = false;
      const check: Waiter = async () => {
        if (checking) {
          again = true;
          return;
        }
        checking = true;
        do {
          again = false;
          const screen = await read();
          if (test(screen)) return finish(() => resolve(screen));
        } while (again);
        checking = false;
      };
      const timer = setTimeout(
        () => void read().then((screen) => finish(() => reject(new Error(`timed out waiting for ${String(expected)}; screen:\n${screen}`)))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      void check();
    });
  }

  /** The title the program set (OSC 0/2). */
  async title(): Promise<string> {
    await this.pending;
    return this.lastTitle;
  }

  private lastTitle = "";

  /** The program's exit status: a number, or `signal SIGxxx`; undefined while it runs. */
  exitStatus(): number | string | undefined {
    return this.status;
  }

  /** Resolves with the exit status once the program has exited. */
  async waitForExit(timeoutMs = WAIT_MS): Promise<number | string> {
    const timeout = Bun.sleep(timeoutMs).then(() => "timeout" as const);
    if ((await Promise.race([this.proc.exited, timeout])) === "timeout") {
      throw new Error(`timed out waiting for the program to exit; screen:\n${await this.screen()}`);
    }
    await this.pending;
    return this.status ?? (this.proc.signalCode ? `signal ${this.proc.signalCode}` : (this.proc.exitCode ?? 0));
  }

  /** Hangs up (SIGHUP, as a closed terminal does), then kills what is left. Never throws. */
  async kill(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      this.proc.kill("SIGHUP");
      const gone = await Promise.race([this.proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
      if (!gone) this.proc.kill("SIGKILL");
      await this.proc.exited;
    }
    try {
      this.pty.close();
    } catch {
      // Already closed with the program.
    }
    this.xterm.dispose();
  }
}
