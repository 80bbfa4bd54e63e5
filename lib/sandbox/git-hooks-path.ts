/**
 * git's `core.hooksPath` for a project, read from its repository's config file without running
 * git: hooks there run outside any sandbox at the next commit, so that folder is protected too.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** The absolute hooks folder named by `core.hooksPath` of the repository holding `dir`, or undefined. */
export function gitHooksPath(dir: string, home = process.env.HOME ?? ""): string | undefined {
  const found = findGitDir(dir);
  if (!found) return undefined;
  let value: string | undefined;
  for (const config of found.configs) value = coreHooksPath(readOrEmpty(config)) ?? value;
  if (!value) return undefined;
  if (value.startsWith("~/")) return join(home, value.slice(2));
  return isAbsolute(value) ? resolve(value) : resolve(found.worktree, value);
}

/** The worktree holding `dir` and its config files (the common one, then the worktree's own), walking up. */
function findGitDir(dir: string): { worktree: string; configs: string[] } | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const git = join(at, ".git");
    try {
      if (statSync(git).isDirectory()) return { worktree: at, configs: [join(git, "config")] };
      const link = /^gitdir:\s*(.+)$/m.exec(readFileSync(git, "utf8"))?.[1]?.trim();
      if (link) {
        const gitDir = resolve(at, link);
        const common = readOrEmpty(join(gitDir, "commondir")).trim();
        const commonDir = common ? resolve(gitDir, common) : gitDir;
        return { worktree: at, configs: [join(commonDir, "config"), join(gitDir, "config.worktree")] };
      }
    } catch {
      // No .git here: look further up.
    }
    if (dirname(at) === at) return undefined;
  }
}

/** The last `hooksPath` of a `[core]` section in git config text (simple `key = value` lines; quotes removed). */
export function coreHooksPath(text: string): string | undefined {
  let section = "";
  let value: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const head = /^\[\s*([^\]\s"]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][\w-]*)\s*=\s*(.*)$/.exec(line);
    if (section === "core" && kv && kv[1]!.toLowerCase() === "hookspath")
      value = kv[2]!
        .replace(/\s[#;].*$/, "")
        .replace(/^"(.*)"$/, "$1")
        .trim();
  }
  return value || undefined;
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
