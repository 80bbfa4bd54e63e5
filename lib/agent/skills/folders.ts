/**
 * Where local skills live, as Claude Code finds them (Claude Code skills.md, "Where skills
 * live"): the user's `~/.claude/skills/` (`$CLAUDE_CONFIG_DIR/skills/` when set), then
 * `.claude/skills/` in the working directory and each parent up to the repository root (the
 * folder holding `.git`; outside a repository, every parent, as Claude Code 2.1.328 does). Only `existsSync`
 * here, so a run without skills pays a few stat calls and loads nothing else.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";

export interface SkillFolder {
  dir: string;
  scope: "user" | "project";
}

/** Which sources may contribute (the Agent SDK's `settingSources`): default both. */
export interface FolderSources {
  user?: boolean;
  project?: boolean;
}

/** The folders to scan, in precedence order (the first to define a name wins), existing ones only. */
export function skillFolders(cwd: string, sources: FolderSources = {}, env: Record<string, string | undefined> = process.env): SkillFolder[] {
  const folders: SkillFolder[] = [];
  if (sources.user !== false) folders.push({ dir: join(userConfigDir(env), "skills"), scope: "user" });
  if (sources.project !== false) for (const dir of projectDirs(cwd)) folders.push({ dir: join(dir, ".claude", "skills"), scope: "project" });
  // A home that is also a project parent would list one folder twice.
  return folders.filter((f, i) => existsSync(f.dir) && folders.findIndex((g) => g.dir === f.dir) === i);
}

/** The working directory and its parents up to the repository root (outside a repository: up to `/`). */
function projectDirs(cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) return dirs;
  }
}
