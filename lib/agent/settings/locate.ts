/**
 * Whether a run has any settings to read, by existence alone: a run without settings files then
 * loads none of the settings engine (print.ts imports it lazily). The paths are files.ts's.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { userSettingsFile } from "../../shared/claude-home.ts";

/** True when `--settings` was given or one of the settings files (or the managed folder) exists. */
export function hasSettings(cwd: string, flag: string | undefined, env: Record<string, string | undefined> = process.env): boolean {
  if (flag !== undefined) return true;
  const managed = managedSettingsDir();
  const paths = [join(cwd, ".claude", "settings.local.json"), join(cwd, ".claude", "settings.json"), userSettingsFile(env)];
  if (managed) paths.push(managed);
  return paths.some((p) => existsSync(p));
}

/** The managed settings folder of this platform (no variable may redirect it), or null where there is none. */
export function managedSettingsDir(platform = process.platform): string | null {
  if (platform === "linux") return "/etc/claude-code";
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode";
  return null;
}
