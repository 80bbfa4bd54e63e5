/**
 * Claude Code's command hooks (hooks.md, "Hook configuration", "Hook input", "Hook execution"):
 * `{"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type": "command", "command": "…", "timeout": s}]}]}}`
 * from every settings file, added up. Matching hooks of one event run in parallel, an identical
 * command once, each in its own process group with JSON on stdin, killed with its children at its
 * timeout (600 s; UserPromptSubmit 30 s; SessionEnd shares a 1.5 s budget). What their exit codes
 * and output mean is hook-outcome.ts.
 */
import { killProcessGroup, trackGroup } from "../../process/group.ts";
import type { Sourced } from "../settings/merge.ts";
import { type HookText, readCapped } from "./hook-output.ts";

export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "Notification",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code events we do not fire: kept silently (/hooks can list them), not reported as unknown. */
const CLAUDE_CODE_ONLY = new Set([
  "PermissionRequest",
  "PermissionDenied",
  "SubagentStart",
  "SubagentStop",
  "UserPromptExpansion",
  "PostCompact",
  "TeammateIdle",
  "TaskCompleted",
  "ConfigChange",
  "WorktreeCreate",
  "WorktreeRemove",
  "InstructionsLoaded",
  "Elicitation",
  "ElicitationResult",
  "StopFailure",
  "PostToolBatch",
  "CwdChanged",
  "FileChanged",
  "Setup",
]);

export interface HookCommand {
  event: HookEvent;
  /** Absent or `*`/"" matches everything. */
  matcher?: string;
  command: string;
  /** Seconds, as written. */
  timeout?: number;
  source: string;
}

const DEFAULT_TIMEOUT_S = 600;
const PROMPT_TIMEOUT_S = 30;
/** SessionEnd hooks all together get this long (ms), as Claude Code gives them on exit. */
export const SESSION_END_BUDGET_MS = 1500;

/** The command hooks of every source, in order; anything else (another type, an unknown event, a malformed entry) is one `warn` line and skipped. */
export function parseHooks(sources: Sourced<Record<string, unknown>>[], warn: (line: string) => void): HookCommand[] {
  const out: HookCommand[] = [];
  for (const { value, file } of sources) {
    for (const [event, groups] of Object.entries(value)) {
      // Claude Code's other events are valid there and simply never fire here: a line on every run would be noise.
      if (CLAUDE_CODE_ONLY.has(event)) continue;
      if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
        warn(`${file.path}: hooks.${event}: unknown hook event "${event}"; ignored`);
        continue;
      }
      if (!Array.isArray(groups)) {
        warn(`${file.path}: hooks.${event} must be an array of {"matcher", "hooks"}; ignored`);
        continue;
      }
      groups.forEach((group: { matcher?: unknown; hooks?: unknown }, i) => {
        const where = `${file.path}: hooks.${event}[${i}]`;
        if (typeof group !== "object" || group === null || !Array.isArray(group.hooks) || (group.matcher !== undefined && typeof group.matcher !== "string")) {
          warn(`${where} must be {"matcher": "…", "hooks": [...]}; ignored`);
          return;
        }
        for (const h of group.hooks as { type?: unknown; command?: unknown; timeout?: unknown }[]) {
          if (h?.type !== "command") {
            warn(`${where}: hooks of type ${JSON.stringify(h?.type)} are not supported (only "command"); ignored`);
          } else if (typeof h.command !== "string" || !h.command.trim()) {
            warn(`${where}: a command hook needs a "command" string; ignored`);
          } else {
            const timeout = typeof h.timeout === "number" && h.timeout > 0 ? h.timeout : undefined;
            out.push({ event: event as HookEvent, matcher: group.matcher as string | undefined, command: h.command, timeout, source: file.path });
          }
        }
      });
    }
  }
  return out;
}

/**
 * Claude Code's matcher rule: `*`, "" or none matches all; only letters, digits, `_`, `-`, spaces,
 * `,` and `|` is a list of exact names; anything else is an unanchored regular expression.
 */
export function matcherMatches(matcher: string | undefined, value: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[A-Za-z0-9_\- ,|]+$/.test(matcher)) return matcher.split(/[|,]/).some((name) => name.trim() === value);
  try {
    return new RegExp(matcher).test(value);
  } catch {
    return false;
  }
}

/** What one hook process did. */
export interface HookRun {
  hook: HookCommand;
  /** null when it was killed at its timeout or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Its stdout was longer than the cap (hook-output.ts) and was cut. */
  stdoutCut?: boolean;
}

export interface RunContext {
  cwd: string;
  /** Extra environment (CLAUDE_PROJECT_DIR and the like), over process.env. */
  env: Record<string, string>;
  /** A hard cap for the whole batch (SessionEnd's budget), in ms. */
  budgetMs?: number;
}

/** Runs `hooks` in parallel (an identical command once), each with `input` as JSON on stdin. */
export async function runHookCommands(hooks: HookCommand[], input: object, ctx: RunContext): Promise<HookRun[]> {
  const unique = hooks.filter((h, i) => hooks.findIndex((o) => o.command === h.command) === i);
  const stdin = JSON.stringify(input);
  return Promise.all(unique.map((h) => runOne(h, stdin, ctx)));
}

async function runOne(hook: HookCommand, stdin: string, ctx: RunContext): Promise<HookRun> {
  const seconds = hook.timeout ?? (hook.event === "UserPromptSubmit" ? PROMPT_TIMEOUT_S : DEFAULT_TIMEOUT_S);
  const limitMs = Math.min(seconds * 1000, ctx.budgetMs ?? Number.POSITIVE_INFINITY);
  let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  try {
    proc = Bun.spawn(["sh", "-c", hook.command], {
      cwd: ctx.cwd,
      env: { ...process.env, ...ctx.env },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
  } catch (err) {
    return { hook, code: null, stdout: "", stderr: `cannot start: ${(err as Error).message}`, timedOut: false };
  }
  const release = trackGroup(proc.pid);
  try {
    // A hook that never reads its stdin must not fail the write.
    Promise.resolve(proc.stdin.write(stdin))
      .then(() => proc.stdin.end())
      .catch(() => {});
    // Capped as Bash output is (hook-output.ts): a hook cannot fill memory or the model's context.
    const out = readCapped(proc.stdout);
    const err = readCapped(proc.stderr);
    let timer: Timer | undefined;
    const timedOut = await Promise.race([
      proc.exited.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), limitMs);
      }),
    ]);
    clearTimeout(timer);
    // Its children go too, whether it finished or was cut off: a hook leaves nothing running.
    await killProcessGroup(proc.pid, 200);
    await proc.exited;
    const [stdout, stderr] = await Promise.all([settled(out), settled(err)]);
    return { hook, code: timedOut ? null : proc.exitCode, stdout: stdout.text, stderr: stderr.text, timedOut, stdoutCut: stdout.cut };
  } finally {
    release();
  }
}

/** A pipe's text, or "" if a child that left the group holds it open past a moment. */
function settled(text: Promise<HookText>): Promise<HookText> {
  return Promise.race([text, Bun.sleep(200).then(() => ({ text: "", total: 0, cut: false }))]);
}
