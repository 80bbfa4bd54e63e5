/**
 * The Claude home's paths, computed here and nowhere else (Claude Code's convention): the user's
 * config folder is `$CLAUDE_CONFIG_DIR` when set and not empty, else `~/.claude`; the user file is
 * `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`. The home folder is `$HOME` first, so a
 * test or a sandbox can point it elsewhere, else the account's. User commands, the user's CLAUDE.md,
 * settings, history and approvals live there.
 */
import { homedir } from "node:os";
import { join } from "node:path";

type Env = Record<string, string | undefined>;

/** The user's home folder: `$HOME` when set and not empty, else the account's. */
export function homeDir(env: Env = process.env): string {
  return env.HOME || homedir();
}

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function userConfigDir(env: Env = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(homeDir(env), ".claude");
}

/** `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json` (MCP servers, trust, approvals). */
export function userConfigFile(env: Env = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, ".claude.json") : join(homeDir(env), ".claude.json");
}

/** The user's settings file: `settings.json` in the config folder. */
export function userSettingsFile(env: Env = process.env): string {
  return join(userConfigDir(env), "settings.json");
}
