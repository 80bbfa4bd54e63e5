/**
 * Where sessions live and how one is found: `<config dir>/agent-sessions/<cwd as a folder
 * name>/<session id>.jsonl`, the config dir being `$CLAUDE_CONFIG_DIR` or `~/.claude`. Claude
 * Code keeps its own transcripts in `projects/` there, in a line format of its own; a folder of
 * ours means neither program lists or loads the other's. Files older than `cleanupPeriodDays`
 * (Claude Code's settings.json key, default 30) are removed at start-up.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { readTranscript } from "./transcript.ts";

export const SESSIONS_FOLDER = "agent-sessions";
export const DEFAULT_CLEANUP_DAYS = 30;
const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A session that cannot be opened as asked: one line for stderr. `usage` marks a malformed id
 * or flag combination (the command line is wrong: exit 2), as opposed to a session that is
 * missing or taken (exit 1).
 */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** True for a UUID in its 8-4-4-4-12 hex form (what `--session-id` takes). */
export const isUuid = (s: string): boolean => UUID.test(s);

/** Claude Code's folder name for a working directory: every character outside `[A-Za-z0-9]` becomes `-`. */
export function projectFolderName(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/** The folder holding this working directory's sessions (not created). */
export function sessionsDir(configDir: string, cwd: string): string {
  return join(configDir, SESSIONS_FOLDER, projectFolderName(cwd));
}

/** The transcript file of session `id` for `cwd`, its folder created (mode 0700). */
export function sessionPath(configDir: string, cwd: string, id: string): string {
  const dir = sessionsDir(configDir, cwd);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${id}.jsonl`);
}

export interface SessionInfo {
  id: string;
  path: string;
  /** Last change (the file's mtime). */
  modified: Date;
  /** The first user prompt's text, on one line. */
  firstPrompt: string;
  /** User prompts in the session. */
  turns: number;
}

/** This directory's session files, newest first, without reading them. */
function sessionFiles(configDir: string, cwd: string): { id: string; path: string; modified: Date }[] {
  const dir = sessionsDir(configDir, cwd);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl") && isUuid(f.slice(0, -6)))
    .map((f) => ({ id: f.slice(0, -6), path: join(dir, f), modified: statSync(join(dir, f)).mtime }))
    .sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The newest session of `cwd` (`--continue`), or undefined when there is none. */
export function newestSession(configDir: string, cwd: string): string | undefined {
  return sessionFiles(configDir, cwd)[0]?.id;
}

/** This directory's sessions with their first prompt and turn count (the `--resume` picker), newest first. */
export function listSessions(configDir: string, cwd: string): SessionInfo[] {
  return sessionFiles(configDir, cwd).flatMap((f) => {
    try {
      const { records } = readTranscript(f.path, () => {});
      const prompts = records.flatMap((r) => (r.type === "message" && r.entry.message.role === "user" ? [r.entry.message] : []));
      const texts = prompts.filter((m) => m.content.some((b) => b.type === "text"));
      const first = texts[0]?.content.find((b) => b.type === "text") as { text: string } | undefined;
      return [{ ...f, firstPrompt: (first?.text ?? "").replace(/\s+/g, " ").trim(), turns: texts.length }];
    } catch {
      return [];
    }
  });
}

/**
 * The file of session `id`: this directory's, else any directory's (ids are unique).
 * @throws SessionError when `id` is not a UUID or no such session exists
 */
export function findSession(configDir: string, cwd: string, id: string): string {
  if (!isUuid(id)) throw new SessionError(`--resume: "${id}" is not a session id (a UUID)`, true);
  const own = join(sessionsDir(configDir, cwd), `${id}.jsonl`);
  if (existsSync(own)) return own;
  const root = join(configDir, SESSIONS_FOLDER);
  for (const dir of existsSync(root) ? readdirSync(root) : []) {
    const path = join(root, dir, `${id}.jsonl`);
    if (existsSync(path)) return path;
  }
  throw new SessionError(`no saved session ${id} (sessions are kept in ${sessionsDir(configDir, cwd)})`);
}

/**
 * `cleanupPeriodDays` from `<config dir>/settings.json` (a positive number of days), else 30.
 * A bad value is reported through `warn` and the default used.
 */
export function cleanupPeriodDays(configDir: string, warn: (line: string) => void): number {
  const path = join(configDir, "settings.json");
  if (!existsSync(path)) return DEFAULT_CLEANUP_DAYS;
  let value: unknown;
  try {
    value = (JSON.parse(readFileSync(path, "utf8")) as { cleanupPeriodDays?: unknown }).cleanupPeriodDays;
  } catch {
    return DEFAULT_CLEANUP_DAYS; // settings.json is not ours alone: its other problems are not ours to report
  }
  if (value === undefined) return DEFAULT_CLEANUP_DAYS;
  if (typeof value !== "number" || !(value > 0)) {
    warn(`${path}: cleanupPeriodDays must be a positive number of days (got ${JSON.stringify(value)}); using ${DEFAULT_CLEANUP_DAYS}`);
    return DEFAULT_CLEANUP_DAYS;
  }
  return value;
}

/** Removes session files of every directory not changed for `days` days, with their checkpoints; returns how many. Never throws. */
export function removeOldSessions(configDir: string, days: number, now = Date.now()): number {
  const root = join(configDir, SESSIONS_FOLDER);
  let removed = 0;
  try {
    for (const dir of readdirSync(root)) {
      for (const f of readdirSync(join(root, dir))) {
        const path = join(root, dir, f);
        if (f.endsWith(".jsonl") && now - statSync(path).mtimeMs > days * DAY_MS) {
          rmSync(path, { force: true });
          // Its checkpoints go with it: only our own sessions' folders, since file-history is shared with Claude Code.
          if (isUuid(f.slice(0, -6))) rmSync(join(configDir, "file-history", f.slice(0, -6)), { recursive: true, force: true });
          removed++;
        }
      }
    }
  } catch {
    // No folder yet, or one vanished under a concurrent run: nothing to clean.
  }
  return removed;
}
