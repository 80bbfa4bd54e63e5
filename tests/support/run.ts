/**
 * Runs the real agent (`your_program.sh`, which uses the compiled executable when it is fresh)
 * in a given directory, with a scripted model, and collects its output.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SILENT_END } from "../../lib/agent/lifecycle.ts";
import { projectSlug } from "../../lib/agent/background/tasks-folder.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const PROGRAM = join(ROOT, "your_program.sh");
/** The bun binary running the tests: fixture servers are started with it. */
export const BUN = process.execPath;
export const FIXTURE_SERVER = join(ROOT, "fixtures/servers/fixture-server.ts");

/** A run is killed after this long (ms), only to end a hang: a loaded machine can take minutes where a quiet one takes a second. */
export const HANG_MS = 110_000;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** Model server URL; sets ANTHROPIC_BASE_URL and a test key. */
  model?: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  timeoutMs?: number;
  /** The run is expected to report a tool that crashed with a bug (otherwise such a report fails the test). */
  allowToolBugs?: boolean;
  /** Another executable to run instead of your_program.sh (an older build, a release binary). */
  program?: string;
  /**
   * An `mcp …` inspector command starts only the project servers the user approved. By default
   * the working folder's `.mcp.json` servers are approved first, as `mcp approve` would; "as-is"
   * leaves the approvals as the test made them (consent tests).
   */
  projectServers?: "approved" | "as-is";
}

const made: string[] = [];
let configDir: string | undefined;

/**
 * Removes every folder `tempDir` made (tests/support/cleanup.ts runs it after the whole run), and
 * the background tasks' output folders the runs in them left in `<tmp>/claude-<uid>/` (named after
 * the project folder, lib/agent/background/tasks-folder.ts), which would otherwise pile up there.
 */
export function removeTempDirs(): void {
  const tasksRoot = join(tmpdir(), `claude-${process.getuid?.() ?? 0}`);
  const slugs = existsSync(tasksRoot) ? readdirSync(tasksRoot) : [];
  for (const dir of made.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
    const slug = projectSlug(dir);
    for (const name of slugs) if (name === slug || name.startsWith(`${slug}-`)) rmSync(join(tasksRoot, name), { recursive: true, force: true });
  }
  configDir = undefined;
}

/** A fresh, empty temporary directory (realpath, so it compares equal to what tools report), removed after the run. */
export function tempDir(prefix = "agent-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Writes `.mcp.json` in `dir` with the given `mcpServers` map. */
export function writeMcpConfig(dir: string, servers: Record<string, unknown>): void {
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }, null, 2));
}

/**
 * Approves every project's `.mcp.json` servers for the user whose HOME is `home`, with Claude
 * Code's documented setting (`~/.claude/settings.json`): for interactive tests about something
 * other than the trust question.
 */
export function approveAllProjectServers(home: string): void {
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
}

/** An `.mcp.json` entry that starts our fixture server with the given flags. */
export function fixtureServer(...flags: string[]) {
  return { command: BUN, args: [FIXTURE_SERVER, ...flags] };
}

/** One CLAUDE_CONFIG_DIR for the test process (each test's own working folder keeps its sessions apart). */
export function testConfigDir(): string {
  configDir ??= tempDir("agent-config-");
  return configDir;
}

/**
 * The agent's environment: this one without ANTHROPIC_*, MCP_* and CLAUDE*, with NO_COLOR, a
 * temporary CLAUDE_CONFIG_DIR (so no run reads or writes the real ~/.claude, saved sessions
 * included), and with `model` the scripted model's URL and a test key.
 */
export function baseEnv(model?: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("ANTHROPIC_") || k.startsWith("MCP_") || k.startsWith("CLAUDE")) delete env[k];
  env.NO_COLOR = "1";
  env.CLAUDE_CONFIG_DIR = testConfigDir();
  if (model) {
    env.ANTHROPIC_BASE_URL = model;
    env.ANTHROPIC_API_KEY = "test-key";
  }
  return env;
}

export async function runAgent(args: string[], opts: RunOptions): Promise<RunResult> {
  const env = { ...baseEnv(opts.model), ...(opts.env ?? {}) };
  // A test that gives HOME means ~/.claude under it.
  if (opts.env && "HOME" in opts.env && !("CLAUDE_CONFIG_DIR" in opts.env)) delete env.CLAUDE_CONFIG_DIR;
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  if (opts.projectServers !== "as-is" && isInspectorCommand(args)) await approveProjectServers(opts.cwd, env);
  const proc = Bun.spawn([opts.program ?? PROGRAM, ...args], {
    cwd: opts.cwd,
    env: env as Record<string, string>,
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? HANG_MS);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  // A tool that crashed with a bug still lets the run succeed; no test may pass over one unnoticed.
  if (TOOL_BUG.test(stderr) && !opts.allowToolBugs) throw new Error(`a tool crashed with a bug during the run:\n${stderr}`);
  assertNoSilentEnd(stderr);
  return { code, stdout, stderr };
}

/** `mcp <verb> …` for a verb that starts servers (not add, add-json, remove, approve or --help), not a -p prompt naming it. */
function isInspectorCommand(args: string[]): boolean {
  const at = args.indexOf("mcp");
  if (at < 0 || args.slice(0, at).some((a) => a === "-p" || a === "--print")) return false;
  return !["add", "add-json", "remove", "approve", "--help", "-h", undefined].includes(args[at + 1]);
}

/** Approves every `.mcp.json` server of `cwd` nobody answered for, in the run's config folder, with the program's own `mcp approve` code. */
export async function approveProjectServers(cwd: string, env: Record<string, string | undefined>): Promise<void> {
  if (!existsSync(join(cwd, ".mcp.json"))) return;
  const [{ loadMcpConfig }, { approveByName, notStartedWithoutConsent, PENDING_APPROVAL }] = await Promise.all([
    import("../../lib/mcp/config/load.ts"),
    import("../../lib/agent/project-approval.ts"),
  ]);
  const project = loadMcpConfig({ cwd, env, extra: [], strict: false }).servers.filter((s) => s.origin?.scope === "project");
  // Only those nobody answered for: a refusal the test made stands.
  const pending = [...notStartedWithoutConsent(project, cwd, env)].filter(([, why]) => why === PENDING_APPROVAL).map(([name]) => name);
  if (pending.length) await approveByName(project, cwd, pending, env);
}

/** Fails the test when the run's stderr holds the silence backstop's line (lib/agent/lifecycle.ts): that line only ever reports a bug. */
export function assertNoSilentEnd(stderr: string): void {
  if (stderr.includes(SILENT_END)) throw new Error(`the run ended with work unfinished (the backstop fired):\n${stderr}`);
}

/** The end-of-run line of lib/agent/turn/tool-bugs.ts. */
const TOOL_BUG = /tool calls? failed with an internal error/;

/**
 * True when `pid` is a live process. An orphan that init never reaps stays a zombie, which
 * signal 0 still finds; a zombie runs nothing, so it counts as dead here.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return !existsSync("/proc/self");
  }
}
