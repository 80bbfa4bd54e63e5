/**
 * Whether the user trusted a workspace, in Claude Code's key: `projects["<dir>"].hasTrustDialogAccepted`
 * in `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`), for the dir or one of its parents
 * (settings.md, "Trust"). A repository's allow rules and additionalDirectories need it in -p.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { userConfigFile } from "../../shared/claude-home.ts";

/** True when `cwd` or a folder above it is trusted in `file`; an unreadable file trusts nothing. Never throws. */
export function workspaceTrusted(cwd: string, file: string): boolean {
  let projects: unknown;
  try {
    projects = (JSON.parse(readFileSync(file, "utf8")) as { projects?: unknown }).projects;
  } catch {
    return false;
  }
  if (typeof projects !== "object" || projects === null) return false;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const entry = (projects as Record<string, { hasTrustDialogAccepted?: unknown } | undefined>)[dir];
    if (entry?.hasTrustDialogAccepted === true) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** The file that records trust for this environment. */
export function trustFile(env: Record<string, string | undefined> = process.env): string {
  return userConfigFile(env);
}
