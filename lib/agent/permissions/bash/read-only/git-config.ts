/**
 * The repository a read-only git command would read, checked before plan mode runs it: git runs
 * programs its config names (`diff.<driver>.textconv` for `git log -p`, `diff.external` for
 * `git diff`, `core.fsmonitor` for `git status`, `gpg.program` with `log.showSignature`…), and a
 * cloned repository can carry a bare repository of its own (`git -C vendor/x.git log -p`, or a `cd`
 * into it) whose config is the attacker's. So the repository git would find is located as git finds
 * it, and a config naming any program-running key, or including another file, refuses the command.
 * The user's own ~/.gitconfig is theirs and not read here.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Keys whose value is a program git may run, or a file it reads more config from (`include.path`). */
const RUNS = /^\s*(fsmonitor|external|textconv|command|clean|smudge|process|program|pager|sshcommand|showsignature|askpass|editor|path)\s*(=|$)/im;
const INCLUDE = /^\s*\[\s*include(if)?\b/im;

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** git's test for a folder that is itself a repository (a bare one, or a `.git`). */
const isGitDir = (dir: string): boolean => isFile(join(dir, "HEAD")) && isDir(join(dir, "objects")) && isDir(join(dir, "refs"));

/** The git directory git would use from `start`, walking up as git does; undefined outside any. */
export function findGitDir(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    if (isGitDir(dotGit)) return dotGit;
    if (isFile(dotGit)) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
      return m ? resolve(dir, m[1]!) : dotGit;
    }
    if (isGitDir(dir)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Undefined when the repository git would read from `cwd` names no program in its config; else why not. */
export function gitConfigProblem(cwd: string): string | undefined {
  const gitDir = findGitDir(cwd);
  if (!gitDir) return undefined;
  const files = [join(gitDir, "config"), join(gitDir, "config.worktree")];
  try {
    if (isFile(join(gitDir, "commondir"))) files.push(join(resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim()), "config"));
    for (const file of files) {
      if (!existsSync(file)) continue;
      const text = readFileSync(file, "utf8");
      if (RUNS.test(text) || INCLUDE.test(text)) return `the git config at ${file} names a program git may run, or includes another file`;
    }
  } catch (error) {
    return `the git config of ${gitDir} could not be read (${(error as Error).message})`;
  }
  return undefined;
}
