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

/** Keys whose value is a program git may run, or a file it reads more config from (`include.path`), by their last part. */
const RUNS = new Set([
  "fsmonitor",
  "external",
  "textconv",
  "command",
  "clean",
  "smudge",
  "process",
  "program",
  "pager",
  "sshcommand",
  "showsignature",
  "askpass",
  "editor",
  "path",
]);

/**
 * The key names of one config file, as git itself reads them (`[core] fsmonitor = x` on one line
 * included): `git config --list` parses and runs nothing. Undefined when git cannot parse it.
 */
function configKeys(file: string): string[] | undefined {
  const r = Bun.spawnSync(["git", "config", "--no-includes", "--file", file, "--list", "--name-only"], {
    stdout: "pipe",
    stderr: "ignore",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" },
  });
  return r.exitCode === 0 ? r.stdout.toString().split("\n").filter(Boolean) : undefined;
}

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
      const keys = configKeys(file);
      if (!keys) return `the git config at ${file} could not be read as git reads it`;
      const bad = keys.find((k) => RUNS.has(k.toLowerCase().split(".").at(-1)!) || /^include(if)?\./i.test(k));
      if (bad) return `the git config at ${file} sets ${bad}, which names a program git may run or another file to read`;
    }
  } catch (error) {
    return `the git config of ${gitDir} could not be read (${(error as Error).message})`;
  }
  return undefined;
}
