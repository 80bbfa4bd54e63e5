/**
 * The interactive session under test: the real program in a pseudo-terminal drawn in process
 * (pty-term.ts), or with `terminal: "tmux"` in a real tmux (tmux.ts) for what only it shows (paste
 * buffers, resize, suspend, extended keys); a scripted model server (model-server.ts) and a fresh
 * working folder. One session at a time per test file; `stopAgent` in afterEach ends it.
 */
import { startModelServer, type ModelServer, type Step } from "./model-server.ts";
import { approveAllProjectServers, PROGRAM, tempDir } from "./run.ts";
import { TmuxSession } from "./tmux.ts";
import { PtySession } from "./pty-term.ts";

/** A terminal a test drives: the in-process pty by default, tmux where asked. */
export type SessionTerminal = PtySession | TmuxSession;
import { until } from "./wait.ts";

export interface Started {
  dir: string;
  home: string;
  term: SessionTerminal;
  server: ModelServer;
}

export interface StartOptions {
  args?: string[];
  /** Prepares the working folder (files, .mcp.json) before the agent starts. */
  setup?(dir: string): void;
  /** HOME of the agent (history lives under it); a fresh one by default. */
  home?: string;
  /** More environment variables. */
  env?: Record<string, string>;
  width?: number;
  height?: number;
  /** OSC 52 clipboard writes become tmux paste buffers (TmuxSession.buffers); implies tmux. */
  clipboard?: boolean;
  /** "tmux" for a real terminal multiplexer; the in-process pty by default. */
  terminal?: "pty" | "tmux";
}

/** Per-test limit (ms): above the screen-wait deadline, so a timeout reports the screen. */
export const TEST_TIMEOUT_MS = 120_000;

let current: { server: ModelServer; term: SessionTerminal } | undefined;

/** The prompt is back and idle: the last screen line is `>` alone, and no turn's status line shows. */
export const atPrompt = (screen: string) => {
  const lines = screen.trimEnd().split("\n");
  return lines.at(-1) === ">" && !lines.slice(-8).some((l) => l.includes("esc to interrupt"));
};

/** Starts the agent in a fresh folder with `script` as the model, and waits for the prompt. */
export async function startAgent(script: Step[], opts: StartOptions = {}): Promise<Started> {
  const started = await launchAgent(script, opts);
  await started.term.waitFor(atPrompt);
  return started;
}

/** Starts the agent in a fresh folder with `script` as the model, without waiting for anything. */
export async function launchAgent(script: Step[], opts: StartOptions = {}): Promise<Started> {
  const { args = [], setup, home = tempDir("agent-home-") } = opts;
  await stopAgent();
  const server = startModelServer(script);
  const dir = tempDir();
  setup?.(dir);
  // The trust question before project servers start has tests of its own (trust.test.ts).
  approveAllProjectServers(home);
  const started = {
    command: [PROGRAM, ...args],
    cwd: dir,
    width: opts.width,
    height: opts.height,
    env: { ...terminalEnv(home, server.url), ...opts.env },
  };
  const term =
    opts.terminal === "tmux" || opts.clipboard ? await TmuxSession.start({ ...started, clipboard: opts.clipboard }) : await PtySession.start(started);
  current = { server, term };
  return { dir, home, term, server };
}

/** Ends the running session, if any: the tmux server and the model server. */
export async function stopAgent(): Promise<void> {
  const running = current;
  current = undefined;
  await running?.term.kill();
  running?.server.stop();
}

/** Types a line, waits for it on screen, and presses Enter. */
export async function submit(term: SessionTerminal, line: string): Promise<void> {
  await term.type(line);
  await term.waitFor(`> ${line}`);
  await term.keys("Enter");
}

/** Polls `condition` (an observable state of a process or file) until true (tests/support/wait.ts's deadline). */
export async function waitUntil(condition: () => boolean): Promise<void> {
  await until(condition);
}

/** The text blocks of a request's messages, one string per message (other blocks by type). */
export function messageTexts(messages: any[]): string[] {
  return messages.map((m) => m.content.map((b: any) => b.text ?? `<${b.type}>`).join("|"));
}

/** The conversation's marker of an interrupted turn, as Claude Code writes it. */
export const INTERRUPT_MARKER = "[Request interrupted by user]";

/** The environment of an agent under tmux: a fresh HOME, a plain terminal, the scripted model. */
export function terminalEnv(home: string, modelUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: "test-key",
  };
}
