/**
 * Protected names below the project's top (a nested repository's `.git/hooks`, a subfolder's
 * `.claude/` or `.mcp.json`), found once when the sandbox starts by a bounded walk (like Claude
 * Code's mandatoryDenySearchDepth, default 3): the existing ones are kept read-only like the top's.
 * Folders that hold dependencies or build output are not walked.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PROTECTED_NAMES } from "./policy.ts";

/** Folders never walked: they hold other people's code or generated files, and can be huge. */
const SKIPPED = new Set(["node_modules", ".git", "dist", "build", "target", ".venv", "venv", "__pycache__"]);
const NAMES: ReadonlySet<string> = new Set(PROTECTED_NAMES);

/** Existing protected paths in subfolders of `dir` down to `depth` levels, walking at most `maxDirs` folders. */
export function nestedProtected(dir: string, depth = 3, maxDirs = 2000): string[] {
  const found: string[] = [];
  let walked = 0;
  const walk = (at: string, level: number) => {
    if (level > depth || walked >= maxDirs) return;
    walked++;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(at, e.name);
      if (level > 0 && NAMES.has(e.name)) found.push(path);
      if (level > 0 && e.name === ".git" && e.isDirectory()) found.push(...[join(path, "hooks"), join(path, "config")].filter((p) => existsSync(p)));
      if (e.isDirectory() && !e.isSymbolicLink() && !SKIPPED.has(e.name) && !NAMES.has(e.name)) walk(path, level + 1);
    }
  };
  walk(dir, 0);
  return found;
}
