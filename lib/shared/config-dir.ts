/**
 * The user's Claude configuration folder: `$CLAUDE_CONFIG_DIR` when set and not empty, else
 * `~/.claude` (Claude Code's convention). User commands, the user's CLAUDE.md and history live there.
 */
import { homedir } from "node:os";
import { join } from "node:path";

export function userConfigDir(env: Record<string, string | undefined> = process.env): string {
  // `env.HOME` first, as userConfigFile reads it: a caller passing another environment gets that user's folder.
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude");
}
