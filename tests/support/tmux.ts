/**
 * Drives a program in a real terminal: a detached tmux session on its own server socket (`-L`),
 * keys sent with send-keys, the screen read with capture-pane. Waiting polls the screen for an
 * expected text until a deadline: the screen is the observable event.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const TMUX = Bun.which("tmux");

/** How long `waitFor` polls before failing (ms). */
export const WAIT_MS = 15_000;
/** Pause between two screen reads while waiting (ms). */
const POLL_MS = 50;

export interface TmuxOptions {
  /** Program and arguments, run directly (no shell). */
  command: string[];
  cwd: string;
  /** The whole environment of the program (nothing is inherited). */
  env: Record<string, string>;
  /** A folder for tmux's config file. */
  scratch: string;
  width?: number;
  height?: number;
}

export class TmuxSession {
  private constructor(readonly socket: string) {}

  /**
   * Starts `command` in a new detached session. The pane stays after the program exits
   * (remain-on-exit) so its exit status can be read.
   * @throws when tmux is missing or refuses to start.
   */
  static async start(opts: TmuxOptions): Promise<TmuxSession> {
    if (!TMUX) throw new Error("tmux is not installed");
    const session = new TmuxSession(`agent-test-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
    const conf = join(opts.scratch, "tmux.conf");
    writeFileSync(conf, "set -g remain-on-exit on\nset -g history-limit 5000\nset -g default-terminal xterm-256color\n");
    const env = Object.entries(opts.env).map(([k, v]) => `${k}=${v}`);
    await session.tmux(
      ["-f", conf, "new-session", "-d", "-s", "main", "-x", String(opts.width ?? 120), "-y", String(opts.height ?? 40), "-c", opts.cwd],
      ["env", "-i", ...env, ...opts.command],
    );
    return session;
  }

  /** Sends tmux key names (`Enter`, `C-c`, `Tab`, `Up`…). */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux(["send-keys", "-t", "main"], keys);
  }

  /** Types `text` literally (no key-name lookup). */
  async type(text: string): Promise<void> {
    await this.tmux(["send-keys", "-t", "main", "-l"], [text]);
  }

  /** The pane's text, scrollback included, wrapped lines joined. */
  async screen(): Promise<string> {
    return this.tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", "main"], []);
  }

  /**
   * Polls the screen until `expected` (a substring, a pattern, or a predicate) matches.
   * Returns the screen. @throws after `timeoutMs` with the last screen in the message.
   */
  async waitFor(expected: string | RegExp | ((screen: string) => boolean), timeoutMs = WAIT_MS): Promise<string> {
    const test = typeof expected === "function" ? expected : typeof expected === "string" ? (s: string) => s.includes(expected) : (s: string) => expected.test(s);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(expected)}; screen:\n${screen}`);
      await Bun.sleep(POLL_MS);
    }
  }

  /** The program's exit status once its pane is dead; undefined while it runs. */
  async exitStatus(): Promise<number | undefined> {
    const out = (await this.tmux(["display-message", "-p", "-t", "main", "#{pane_dead} #{pane_dead_status}"], [])).trim();
    const [dead, status] = out.split(" ");
    return dead === "1" ? Number(status) : undefined;
  }

  /** Polls until the program has exited; its exit status. */
  async waitForExit(timeoutMs = WAIT_MS): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await this.exitStatus();
      if (status !== undefined) return status;
      if (Date.now() > deadline) throw new Error(`timed out waiting for the program to exit; screen:\n${await this.screen()}`);
      await Bun.sleep(POLL_MS);
    }
  }

  /** Kills the tmux server (and with it the program, by SIGHUP). Never throws. */
  async kill(): Promise<void> {
    await this.tmux(["kill-server"], []).catch(() => undefined);
  }

  private async tmux(args: string[], rest: string[]): Promise<string> {
    const proc = Bun.spawn([TMUX!, "-L", this.socket, ...args, ...rest], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`tmux ${args[0]} failed (exit ${code}): ${err.trim()}`);
    return out;
  }
}
