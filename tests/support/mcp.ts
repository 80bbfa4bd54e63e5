/**
 * Helpers for the end-to-end MCP tests (tests/e2e/agent-mcp-*.test.ts): a temp project with a
 * `.mcp.json` and a scripted model, what reached the model, what a fixture server received, the
 * npm reference servers as `.mcp.json` entries, an agent process we can signal, and checks that
 * no process of a run survives it.
 */
import { type HttpFixture, startHttpFixture } from "../../fixtures/servers/http-server.ts";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startModelServer, type ModelServer, type RecordedRequest, type Step } from "./model-server.ts";
import { BUN, PROGRAM, ROOT, assertNoSilentEnd, baseEnv, isAlive, runAgent, tempDir, writeMcpConfig, type RunResult } from "./run.ts";
import { DEADLINE_MS } from "./wait.ts";

/** A temp project: `.mcp.json` written from `servers`, a scripted model, and a fresh marker. */
export interface Project {
  dir: string;
  model: ModelServer;
  /**
   * A value unique to this project, put in the agent's environment as AGENT_TEST_MARKER: every
   * process the run starts inherits it, so `marked(project.marker)` finds whatever is left.
   */
  marker: string;
  /** Runs `./your_program.sh -p <prompt> ...extra` in the project with the scripted model. */
  run(prompt: string, opts?: { args?: string[]; env?: Record<string, string | undefined> }): Promise<RunResult>;
  /** Like `run`, but returns the live process (to signal it, or to watch its stderr). */
  spawn(prompt: string, opts?: { args?: string[]; env?: Record<string, string | undefined> }): AgentProcess;
}

const projects: Project[] = [];
let made = 0;

/** What a project's servers and script may depend on, known before either is set up. */
export interface ProjectBasics {
  dir: string;
  marker: string;
}

/**
 * Creates a project; `stopProjects()` (in afterEach) stops every model server made so far.
 * `servers` and `script` may be functions of the project's directory and marker.
 */
export function project(
  servers: Record<string, unknown> | undefined | ((p: ProjectBasics) => Record<string, unknown>),
  script: Step[] | ((p: ProjectBasics) => Step[]),
): Project {
  const dir = tempDir("agent-mcp-");
  const marker = `agent-mcp-${process.pid}-${++made}-${dir.split("/").pop()}`;
  const config = typeof servers === "function" ? servers({ dir, marker }) : servers;
  if (config) writeMcpConfig(dir, config);
  const model = startModelServer(typeof script === "function" ? script({ dir, marker }) : script);
  const p: Project = {
    dir,
    model,
    marker,
    run: (prompt, opts = {}) => runAgent(["-p", prompt, ...(opts.args ?? [])], { cwd: dir, model: model.url, env: { AGENT_TEST_MARKER: marker, ...opts.env } }),
    spawn: (prompt, opts = {}) =>
      spawnAgent(["-p", prompt, ...(opts.args ?? [])], { cwd: dir, model: model.url, env: { AGENT_TEST_MARKER: marker, ...opts.env } }),
  };
  projects.push(p);
  return p;
}

export function stopProjects(): void {
  for (const p of projects.splice(0)) p.model.stop();
  for (const f of httpFixtures.splice(0)) f.stop();
}

const httpFixtures: HttpFixture[] = [];

/** Our HTTP fixture server (fixtures/servers/http-server.ts) with `flags`, stopped by `stopProjects()`. */
export function httpFixture(...flags: string[]): HttpFixture {
  const f = startHttpFixture(flags);
  httpFixtures.push(f);
  return f;
}

/** Names of the tools offered in a model request, in order, duplicates kept. */
export function toolNames(req: RecordedRequest): string[] {
  return (req.body.tools ?? []).map((t: { name: string }) => t.name);
}

/** The tool definitions offered in a model request, by name (a duplicate name keeps the last). */
export function offered(req: RecordedRequest): Map<string, { name: string; description: string; input_schema: any }> {
  return new Map((req.body.tools ?? []).map((t: any) => [t.name, t]));
}

/** The tool_result blocks of a request's last (user) message. */
export function toolResults(req: RecordedRequest): any[] {
  const last = req.body.messages.at(-1);
  return Array.isArray(last.content) ? withoutBreakpoints(last.content.filter((b: any) => b.type === "tool_result")) : [];
}

/** The single tool_result a request carries back (throws when there is not exactly one). */
export function toolResult(req: RecordedRequest): { content: any; is_error?: boolean; tool_use_id: string } {
  const results = toolResults(req);
  if (results.length !== 1) throw new Error(`expected one tool_result, got ${results.length}: ${JSON.stringify(results).slice(0, 300)}`);
  return results[0];
}

/** The content blocks of the first user message (the prompt and its attachments). */
export function userBlocks(req: RecordedRequest): any[] {
  return withoutBreakpoints(req.body.messages[0].content);
}

/** Blocks without their prompt-caching `cache_control` (tests/e2e/print/caching.test.ts checks where those go). */
export function withoutBreakpoints(blocks: any[]): any[] {
  return blocks.map(({ cache_control: _, ...rest }) => rest);
}

/** stderr lines, without blank ones. */
export const lines = (stderr: string): string[] => stderr.split("\n").filter((l) => l.trim() !== "");

/** Every JSON-RPC message a fixture server received (its `--log-file`), parsed; [] if it never wrote one. */
export function received(logFile: string): Record<string, any>[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/** Methods a fixture server received, in order. */
export const methods = (logFile: string): string[] => received(logFile).map((m) => String(m.method ?? "(response)"));

/** Pids a fixture server wrote to its `--pid-file` (its own, its grandchild's, or a wrapper shell's). */
export function pidsIn(file: string): number[] {
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number);
}

/**
 * Pids of running processes whose environment holds `AGENT_TEST_MARKER=<marker>` (Linux /proc).
 * Processes of other users or already gone are skipped.
 */
export function marked(marker: string): number[] {
  const needle = `\0AGENT_TEST_MARKER=${marker}\0`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (`\0${readFileSync(`/proc/${entry}/environ`, "latin1")}`.includes(needle) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // Not ours, or exited meanwhile.
    }
  }
  return found;
}

/**
 * Waits until none of `pids` is running and returns those still running at the deadline (so [] is
 * the pass). SIGKILL lands asynchronously and the death of a process that is not our child has no
 * event to await, so this polls, bounded generously: a loaded machine reaps slowly.
 */
export async function survivors(pids: () => number[]): Promise<number[]> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const left = pids();
    if (left.length === 0 || Date.now() > deadline) return left;
    await Bun.sleep(10);
  }
}

/** True once `pid` is gone (zombies count as gone): `survivors` for one process. */
export async function gone(pid: number): Promise<boolean> {
  return (await survivors(() => (isAlive(pid) ? [pid] : []))).length === 0;
}

/** An agent process we spawned ourselves, to signal it while it runs. */
export interface AgentProcess {
  /** The agent's own pid: your_program.sh execs the runtime. */
  pid: number;
  stderr(): string;
  /** Resolves once stderr contains `text`; rejects if the agent exits first. */
  waitForStderr(text: string): Promise<void>;
  /** Resolves with the exit code and output once the agent has exited. */
  done: Promise<RunResult>;
}

/** Spawns `./your_program.sh ...args` in `cwd` with the scripted model, stdin closed. */
export function spawnAgent(args: string[], opts: { cwd: string; model: string; env?: Record<string, string | undefined> }): AgentProcess {
  const env = { ...baseEnv(opts.model), ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const proc = Bun.spawn([PROGRAM, ...args], { cwd: opts.cwd, env: env as Record<string, string>, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let err = "";
  let waiters: { text: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  const stderrDone = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      err += decoder.decode(chunk, { stream: true });
      waiters = waiters.filter((w) => (err.includes(w.text) ? (w.resolve(), false) : true));
    }
    for (const w of waiters) w.reject(new Error(`agent exited before stderr showed ${JSON.stringify(w.text)}; stderr:\n${err}`));
    waiters = [];
  })();
  const timer = setTimeout(() => proc.kill("SIGKILL"), 25_000);
  const done = Promise.all([new Response(proc.stdout).text(), stderrDone, proc.exited]).then(([stdout, , code]) => {
    clearTimeout(timer);
    assertNoSilentEnd(err);
    return { code, stdout, stderr: err };
  });
  return {
    pid: proc.pid,
    stderr: () => err,
    waitForStderr: (text) => (err.includes(text) ? Promise.resolve() : new Promise((resolve, reject) => waiters.push({ text, resolve, reject }))),
    done,
  };
}

/** A model step that does not answer until `release()`: `reached` resolves when the request arrives. */
export function heldStep(): { step: Step; reached: Promise<RecordedRequest>; release(next: Step): void } {
  let arrived!: (req: RecordedRequest) => void;
  let answer!: (step: Step) => void;
  const reached = new Promise<RecordedRequest>((resolve) => (arrived = resolve));
  const answered = new Promise<Step>((resolve) => (answer = resolve));
  return {
    step: (req) => {
      arrived(req);
      return answered;
    },
    reached,
    release: answer,
  };
}

/** The npm reference servers (devDependencies), started as `node <bin>` (Bun when Node is absent). */
export const RUNTIME = Bun.which("node") ?? BUN;

/** Absolute path of a reference server's entry point, from its package.json `bin`. */
export function npmServerBin(pkg: "everything" | "filesystem" | "memory"): string {
  const dir = join(ROOT, "node_modules/@modelcontextprotocol", `server-${pkg}`);
  const bin = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).bin;
  return join(dir, typeof bin === "string" ? bin : (Object.values(bin)[0] as string));
}

/** An `.mcp.json` entry running a reference server with `args` and `env`. */
export function npmServer(pkg: "everything" | "filesystem" | "memory", args: string[] = [], env: Record<string, string> = {}) {
  return { command: RUNTIME, args: [npmServerBin(pkg), ...args], env };
}
