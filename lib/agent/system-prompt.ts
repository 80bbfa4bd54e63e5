/**
 * The system prompt: who the agent is, where it runs, and the project's CLAUDE.md memory.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { userConfigDir } from "../shared/claude-home.ts";

export interface SystemPromptOptions {
  cwd: string;
  /** --system-prompt: replaces the default text (CLAUDE.md and environment still follow). */
  override?: string;
  /** --append-system-prompt. */
  append?: string;
  /** MCP servers' `instructions` from `initialize`, by server name. */
  serverInstructions?: { name: string; instructions: string }[];
  date?: Date;
}

const IDENTITY = `You are a coding agent, a command-line assistant for software engineering work in the user's project, in the style of Claude Code.
Use the tools to read, search, edit files and run commands; prefer doing over describing. Keep answers short and direct: the final answer is printed to the user as plain text.
Relative paths are relative to the working directory.`;

/**
 * CLAUDE.md files from the user's config folder (`$CLAUDE_CONFIG_DIR`, else ~/.claude), then from the filesystem root down to `cwd`
 * (so the nearest file comes last and wins on conflicts), each with its path.
 */
export function findClaudeMd(cwd: string): { path: string; text: string }[] {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  const candidates = [join(userConfigDir(), "CLAUDE.md")];
  for (const dir of dirs) candidates.push(join(dir, "CLAUDE.md"), join(dir, ".claude", "CLAUDE.md"));
  const found: { path: string; text: string }[] = [];
  for (const path of new Set(candidates)) {
    if (!existsSync(path)) continue;
    try {
      found.push({ path, text: readFileSync(path, "utf8") });
    } catch {
      // An unreadable CLAUDE.md is not worth failing the run over.
    }
  }
  return found;
}

export function buildSystemPrompt(opts: SystemPromptOptions): string {
  const date = (opts.date ?? new Date()).toISOString().slice(0, 10);
  const parts = [opts.override ?? IDENTITY, `<env>\nWorking directory: ${opts.cwd}\nPlatform: ${process.platform}\nToday's date: ${date}\n</env>`];
  const memory = findClaudeMd(opts.cwd);
  if (memory.length) {
    parts.push(
      "# Project instructions (CLAUDE.md)\nThese instructions come from the user's CLAUDE.md files; follow them.\n\n" +
        memory.map((m) => `Contents of ${m.path}:\n\n${m.text.trim()}`).join("\n\n"),
    );
  }
  const instructions = (opts.serverInstructions ?? []).filter((s) => s.instructions.trim());
  if (instructions.length) {
    parts.push("# MCP server instructions\n\n" + instructions.map((s) => `## ${s.name}\n${s.instructions.trim()}`).join("\n\n"));
  }
  if (opts.append) parts.push(opts.append);
  return parts.join("\n\n");
}
