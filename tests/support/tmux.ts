/**
 * Drives a program in a real terminal: a detached tmux session on its own server socket (`-L`),
 * keys sent with send-keys, the screen read with capture-pane. Waiting polls the screen for an
 * expected text until a deadline: the screen is the observable event.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const TMUX = Bun.which("tmux");
/** Runs the program and records its exit status (see that file). */
const EXIT_STATUS = join(import.meta.dir, "tmux-exit-status.ts");

/** How long `waitFor` polls before failing (ms): generous, a loaded machine draws slowly; a passing test waits only for its screen. */
export const WAIT_MS = 60_000;
/** Pause between two screen reads while waiting (ms). */
const POLL_MS = 50;

export interface TmuxOptions {
  /** Program and arguments, run directly (no shell). */
  command: string[];
  cwd: string;
  /** The whole environment of the program (nothing is inherited). */
  env: Record<string, string>;
  width?: number;
  height?: number;
  /**
   * tmux's `extended-keys on`: keys like Shift+Enter reach a program that asked for them
   * (modifyOtherKeys) as CSI sequences; to others tmux 3.3 types the key's name.
   */
  extendedKeys?: boolean;
  /** tmux's `set-clipboard on`: an OSC 52 write from the program creates a paste buffer (see `buffers`). */
  clipboard?: boolean;
}

export class TmuxSession {
  /** tmux leaves its socket file behind after kill-server; removed in kill(). */
  private socketPath: string | undefined;

  private constructor(
    readonly socket: string,
    private readonly scratch: string,
  ) {}

  private get statusFile(): string {
    return join(this.scratch, "exit-status");
  }

  /**
   * Starts `command` in a new detached session, through a wrapper that records its exit status.
   * The pane stays after the program exits (remain-on-exit), so its last screen can be read.
   * @throws when tmux is missing or refuses to start.
   */
  static async start(opts: TmuxOptions): Promise<TmuxSession> {
    if (!TMUX) throw new Error("tmux is not installed");
    const scratch = mkdtempSync(join(tmpdir(), "agent-tmux-"));
    const session = new TmuxSession(`agent-test-${process.pid}-${crypto.randomUUID().slice(0, 8)}`, scratch);
    const conf = join(scratch, "tmux.conf");
    const extended = opts.extendedKeys ? "set -s extended-keys on\n" : "";
    const clipboard = opts.clipboard ? "set -s set-clipboard on\n" : "";
    writeFileSync(conf, `set -g remain-on-exit on\nset -g history-limit 5000\nset -g default-terminal xterm-256color\n${extended}${clipboard}`);
    const env = Object.entries(opts.env).map(([k, v]) => `${k}=${v}`);
    await session.tmux(
      ["-f", conf, "new-session", "-d", "-s", "main", "-x", String(opts.width ?? 120), "-y", String(opts.height ?? 40), "-c", opts.cwd],
      ["env", "-i", ...env, process.execPath, EXIT_STATUS, session.statusFile, ...opts.command],
    );
    session.socketPath = (await session.tmux(["display-message", "-p", "#{socket_path}"], [])).trim();
    return session;
  }

  /** Sends tmux key names (`Enter`, `C-c`, `Tab`, `Up`…). */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux(["send-keys", "-t", "main"], keys);
  }

  /** Sends `raw` byte for byte (UTF-16 units below 256), as a terminal sends an escape sequence. */
  async bytes(raw: string): Promise<void> {
    const hex = [...raw].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0"));
    await this.tmux(["send-keys", "-t", "main", "-H"], hex);
  }

  /** Types `text` literally (no key-name lookup). */
  async type(text: string): Promise<void> {
    await this.tmux(["send-keys", "-t", "main", "-l"], [text]);
  }

  /**
   * Pastes `text` as a terminal paste: bracketed (ESC[200~ … ESC[201~) when the program asked
   * for bracketed paste, line feeds sent as they are (`-r`), or with `lfAsCr` each LF turned
   * into CR, as tmux's own paste binding does.
   */
  async paste(text: string, { lfAsCr = false } = {}): Promise<void> {
    await this.tmux(["set-buffer", "-b", "test-paste", "--"], [text]);
    await this.tmux(["paste-buffer", "-p", ...(lfAsCr ? [] : ["-r"]), "-d", "-b", "test-paste", "-t", "main"], []);
  }

  /** Resizes the terminal (the program gets SIGWINCH). */
  async resize(width: number, height: number): Promise<void> {
    await this.tmux(["resize-window", "-t", "main", "-x", String(width), "-y", String(height)], []);
  }

  /** The pane's text, scrollback included, wrapped lines joined. */
  async screen(): Promise<string> {
    return this.tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", "main"], []);
  }

  /** The paste buffers' names and contents: what the program put on the clipboard (OSC 52), with `clipboard`. */
  async buffers(): Promise<string> {
    return this.tmux(["list-buffers", "-F", "#{buffer_name}: #{buffer_sample}"], []);
  }

  /** The pane's title, which the program may set (OSC 0/2). */
  async title(): Promise<string> {
    return (await this.tmux(["display-message", "-p", "-t", "main", "#{pane_title}"], [])).trim();
  }

  /** The rows on screen now, without the scrollback, wrapped lines joined. */
  async visible(): Promise<string> {
    return this.tmux(["capture-pane", "-p", "-J", "-t", "main"], []);
  }

  /**
   * Polls the screen (with its scrollback, or only the rows on screen now) until `expected` (a
   * substring, a pattern, or a predicate) matches. Returns the screen. @throws after `timeoutMs` with the last screen in the message.
   */
  async waitFor(expected: string | RegExp | ((screen: string) => boolean), timeoutMs = WAIT_MS, rows: "all" | "visible" = "all"): Promise<string> {
    const test =
      typeof expected === "function" ? expected : typeof expected === "string" ? (s: string) => s.includes(expected) : (s: string) => expected.test(s);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = rows === "visible" ? await this.visible() : await this.screen();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(expected)}; screen:\n${screen}`);
      await Bun.sleep(POLL_MS);
    }
  }

  /**
   * The program's exit status: a number, or `signal SIGxxx`; undefined while it runs.
   * Read from the wrapper's file: tmux may mark a pane dead before it knows the status.
   */
  exitStatus(): number | string | undefined {
    if (!existsSync(this.statusFile)) return undefined;
    const status = readFileSync(this.statusFile, "utf8");
    return /^\d+$/.test(status) ? Number(status) : status;
  }

  /** Polls until the program has exited; its exit status. */
  async waitForExit(timeoutMs = WAIT_MS): Promise<number | string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = this.exitStatus();
      if (status !== undefined) return status;
      if (Date.now() > deadline) throw new Error(`timed out waiting for the program to exit; screen:\n${await this.screen()}`);
      await Bun.sleep(POLL_MS);
    }
  }

  /** Kills the tmux server (and with it the program, by SIGHUP) and removes its files. Never throws. */
  async kill(): Promise<void> {
    await this.tmux(["kill-server"], []).catch(() => undefined);
    if (this.socketPath) rmSync(this.socketPath, { force: true });
    rmSync(this.scratch, { recursive: true, force: true });
  }

  private async tmux(args: string[], rest: string[]): Promise<string> {
    const proc = Bun.spawn([TMUX!, "-L", this.socket, ...args, ...rest], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`tmux ${args[0]} failed (exit ${code}): ${err.trim()}`);
    return out;
  }
}
