/**
 * Shared by the settings suites: a project with `.claude/settings.json` (and friends), a user
 * config folder of its own, real hook scripts, and one -p run against the scripted model.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type RecordedRequest, reply, type Step, startModelServer, text } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, type RunResult, runAgent, tempDir } from "../../support/run.ts";

export interface Place {
  dir: string;
  /** CLAUDE_CONFIG_DIR of the run: the user's settings.json and .claude.json live here. */
  config: string;
}

export function place(): Place {
  return { dir: tempDir(), config: tempDir("agent-config-") };
}

/** Writes JSON at `path` (folders made). */
export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

export const projectSettings = (p: Place, value: unknown) => writeJson(join(p.dir, ".claude", "settings.json"), value);
export const localSettings = (p: Place, value: unknown) => writeJson(join(p.dir, ".claude", "settings.local.json"), value);
export const userSettings = (p: Place, value: unknown) => writeJson(join(p.config, "settings.json"), value);
/** Marks the project folder trusted, in Claude Code's key. */
export const trust = (p: Place) => writeJson(join(p.config, ".claude.json"), { projects: { [p.dir]: { hasTrustDialogAccepted: true } } });

/** An executable `sh` script in a temp folder of its own; returns its path. */
export function hookScript(body: string): string {
  const path = join(tempDir("agent-hook-"), "hook.sh");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** `{"<event>": [{"matcher", "hooks": [{"type": "command", "command"}]}]}` for one hook. */
export const hook = (event: string, command: string, matcher?: string, extra: Record<string, unknown> = {}) => ({
  [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, ...extra }] }],
});

export interface SettingsRun extends RunResult {
  requests: RecordedRequest[];
}

/** Runs `agent -p <prompt> ...args` in the place with `script` (then "done"). */
export async function runPrint(
  p: Place,
  script: Step[],
  args: string[] = [],
  opts: { prompt?: string; env?: Record<string, string | undefined> } = {},
): Promise<SettingsRun> {
  const server = startModelServer([...script, reply(text("done"))]);
  try {
    const run = await runAgent(["-p", opts.prompt ?? "go", ...args], { cwd: p.dir, model: server.url, env: { CLAUDE_CONFIG_DIR: p.config, ...opts.env } });
    return { ...run, requests: server.requests };
  } finally {
    server.stop();
  }
}

/** The tool_result blocks the request after the `n`-th (0-based) carries. */
export function resultsOf(run: SettingsRun, n: number): { content: unknown; is_error?: boolean; tool_use_id: string }[] {
  const last = run.requests[n + 1]?.body.messages.at(-1);
  return (last?.content ?? []).filter((b: { type: string }) => b.type === "tool_result");
}

/** The text blocks of the last message of request `n`. */
export function textsOf(run: SettingsRun, n: number): string[] {
  const last = run.requests[n]?.body.messages.at(-1);
  return (last?.content ?? []).filter((b: { type: string }) => b.type === "text").map((b: { text: string }) => b.text);
}

/**
 * Like runPrint, inside a private mount namespace whose /etc is an overlay with
 * `/etc/claude-code/managed-settings.json` holding `managed`: the real /etc is never written.
 * Needs root (or user namespaces) and overlayfs; `available` says whether this machine has them.
 */
export async function runPrintManaged(p: Place, managed: unknown, script: Step[], args: string[] = []): Promise<SettingsRun> {
  const layer = tempDir("agent-etc-");
  mkdirSync(join(layer, "upper", "claude-code"), { recursive: true });
  mkdirSync(join(layer, "work"));
  writeFileSync(join(layer, "upper", "claude-code", "managed-settings.json"), JSON.stringify(managed));
  const mount = `mount -t overlay overlay -o lowerdir=/etc,upperdir=${layer}/upper,workdir=${layer}/work /etc && exec "$@"`;
  const server = startModelServer([...script, reply(text("done"))]);
  try {
    const run = await runAgentVia(["unshare", "-m", "--propagation", "private", "sh", "-c", mount, "sh"], ["-p", "go", ...args], p, server.url);
    return { ...run, requests: server.requests };
  } finally {
    server.stop();
  }
}

/** True when this machine can give a run its own /etc overlay (root and overlayfs). */
export const managedAvailable = (() => {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  const probe = Bun.spawnSync(["unshare", "-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs tmpfs /mnt"], { stdout: "ignore", stderr: "ignore" });
  return probe.exitCode === 0;
})();

async function runAgentVia(prefix: string[], args: string[], p: Place, model: string): Promise<RunResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...baseEnv(model), CLAUDE_CONFIG_DIR: p.config })) if (v !== undefined) env[k] = v;
  const proc = Bun.spawn([...prefix, PROGRAM, ...args], { cwd: p.dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
