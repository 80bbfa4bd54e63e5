/**
 * Shared by the settings suites: a project with `.claude/settings.json` (and friends), a user
 * config folder of its own, real hook scripts, and one -p run against the scripted model.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type RecordedRequest, reply, type Step, startModelServer, text } from "../../support/model-server.ts";
import { type RunResult, runAgent, tempDir } from "../../support/run.ts";

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
