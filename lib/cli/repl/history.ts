/**
 * Input history kept across interactive sessions: one entry per line in
 * `$CLAUDE_CONFIG_DIR/agent_history` (default `~/.claude/agent_history`), oldest first.
 * History is a convenience: a file that cannot be read or written costs one warning, never the session.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";

/** Entries kept, and offered to readline. */
export const HISTORY_SIZE = 1000;
/** The history file's name inside the config folder. */
export const HISTORY_FILE = "agent_history";

/** `$CLAUDE_CONFIG_DIR/agent_history`, else `~/.claude/agent_history`. */
export function historyPath(env: Record<string, string | undefined> = process.env): string {
  return join(userConfigDir(env), HISTORY_FILE);
}

/** The history file: loaded once at start, appended to per submitted line. */
export class History {
  private warned = false;

  constructor(
    readonly path: string,
    private readonly warn: (line: string) => void,
  ) {}

  /**
   * The saved entries, newest first (readline's order), at most HISTORY_SIZE, without
   * consecutive duplicates. A missing file is an empty history. Rewrites the file when it has
   * grown past twice the limit, so it stays bounded.
   */
  load(): string[] {
    let lines: string[];
    try {
      lines = readFileSync(this.path, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") this.warnOnce(`cannot read ${this.path}: ${(err as Error).message}`);
      return [];
    }
    const entries = lines.filter((l, i) => l !== lines[i - 1]).slice(-HISTORY_SIZE);
    if (lines.length > 2 * HISTORY_SIZE) this.rewrite(entries);
    return entries.reverse();
  }

  /** Appends one entry (a submitted line; readline lines hold no newline). */
  add(entry: string): void {
    if (!entry.trim()) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      appendFileSync(this.path, entry.replace(/\n/g, " ") + "\n");
    } catch (err) {
      this.warnOnce(`cannot save history to ${this.path}: ${(err as Error).message}`);
    }
  }

  private rewrite(entries: string[]): void {
    try {
      writeFileSync(this.path, entries.join("\n") + "\n");
    } catch (err) {
      this.warnOnce(`cannot compact ${this.path}: ${(err as Error).message}`);
    }
  }

  private warnOnce(line: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(`warning: history: ${line}`);
  }
}
