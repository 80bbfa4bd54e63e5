/**
 * The git-tree snapshot: before a turn's first Bash call in a git work tree, every tracked and
 * untracked-not-ignored file is recorded as a git tree, so a rewind can restore what Bash changed
 * and delete what it created. The user's repository is hostile ground and must not change:
 *   - the index is a private copy (GIT_INDEX_FILE): copying the user's index lets `git add -A`
 *     rehash only files whose stat changed, which keeps the cost near `git status`;
 *   - new objects go to an object store of our own in the session's checkpoint folder, with the
 *     repository's objects as an alternate: `git gc` there neither prunes ours nor grows theirs;
 *   - no repository-configured command runs: no hooks (core.hooksPath=/dev/null), no fsmonitor
 *     (core.fsmonitor=), every configured filter driver emptied, --no-optional-locks; and no refs,
 *     stash or index of the user's are written.
 * A blob must be the file's bytes exactly. `git add` converts line endings or runs filters only
 * under attributes or core.autocrlf: when any attributes file or autocrlf is present, files are
 * hashed with `git hash-object --no-filters` instead (slower, exact).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { TreeSnapshot } from "./row.ts";

/** A repository with more index entries than this is not snapshotted (one --debug line; the preview says so). */
export const MAX_TREE_FILES = 200_000;

interface Repo {
  top: string;
  gitDir: string;
  objects: string;
  index: string;
}

/** Options every git call gets: nothing the repository configures may run. */
const SAFE = ["--no-optional-locks", "-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false"];

function git(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  input?: string | Uint8Array,
  safe = SAFE,
): { ok: boolean; out: Buffer; err: string } {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("GIT_")) clean[k] = v;
  try {
    const r = Bun.spawnSync(["git", ...safe, ...args], {
      cwd,
      env: { ...clean, GIT_TERMINAL_PROMPT: "0", ...env },
      stdin: input === undefined ? "ignore" : Buffer.from(input),
      stdout: "pipe",
      stderr: "pipe",
    });
    return { ok: r.exitCode === 0, out: r.stdout, err: r.stderr.toString().trim().split("\n")[0] ?? "" };
  } catch (err) {
    // No git at all, or the folder is gone: the snapshot says so; the Bash call goes on.
    return { ok: false, out: Buffer.alloc(0), err: (err as Error).message };
  }
}

/** Work trees found, by folder: where a repository lives does not move within a run. */
const repos = new Map<string, Repo>();

function findRepo(cwd: string): Repo | undefined {
  const known = repos.get(cwd);
  if (known && existsSync(known.gitDir)) return known;
  const r = git(["rev-parse", "--is-inside-work-tree", "--show-toplevel", "--absolute-git-dir", "--git-path", "objects", "--git-path", "index"], cwd);
  if (!r.ok) return undefined;
  const [inside, top, gitDir, objects, index] = r.out.toString().trim().split("\n");
  if (inside !== "true" || !top || !gitDir || !objects || !index) return undefined;
  const abs = (p: string) => (p.startsWith("/") ? p : join(cwd, p));
  const repo = { top, gitDir, objects: abs(objects), index: abs(index) };
  repos.set(cwd, repo);
  return repo;
}

/** The env that points git at our index and object store, the repository's objects as an alternate. */
function storeEnv(store: string, repo: Repo, index?: string): Record<string, string> {
  mkdirSync(join(store, "objects", "info"), { recursive: true, mode: 0o700 });
  return {
    GIT_OBJECT_DIRECTORY: join(store, "objects"),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: repo.objects,
    ...(index ? { GIT_INDEX_FILE: index } : {}),
  };
}

/** What the configuration (every file, includes too) says that matters here, read with one git call. */
interface ConfigFacts {
  /** `-c filter.<name>.clean=` and the like for every filter driver any config file names. */
  noFilters: string[];
  /** core.attributesFile or core.autocrlf set by the user: `git add` may change bytes. */
  mayConvert: boolean;
}

/** Config read, by repository, kept while none of the config files it may come from changed (their mtimes). */
const configs = new Map<string, { stamp: string; facts: ConfigFacts }>();

function configStamp(repo: Repo): string {
  const home = process.env.HOME ?? "";
  const files = [join(repo.gitDir, "config"), join(home, ".gitconfig"), join(process.env.XDG_CONFIG_HOME || join(home, ".config"), "git", "config")];
  return files.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? "-").join(",");
}

function cachedConfigFacts(repo: Repo): ConfigFacts {
  const stamp = configStamp(repo);
  const known = configs.get(repo.gitDir);
  if (known?.stamp === stamp) return known.facts;
  const facts = configFacts(repo.top);
  configs.set(repo.gitDir, { stamp, facts });
  return facts;
}

function configFacts(cwd: string): ConfigFacts {
  const r = git(["config", "--list", "-z", "--show-scope"], cwd, {}, undefined, []);
  const names = new Set<string>();
  let mayConvert = false;
  // `-z --show-scope`: NUL-separated pairs of scope, then key, newline, value.
  const parts = r.ok ? r.out.toString().split("\0") : [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [scope, rest] = [parts[i]!, parts[i + 1]!];
    const key = rest.split("\n")[0]!.toLowerCase();
    const value = rest.slice(key.length + 1).trim();
    const filter = /^filter\.(.+)\.[^.]+$/.exec(key)?.[1];
    if (filter) names.add(filter);
    if (scope !== "command" && ((key === "core.autocrlf" && value !== "false") || (key === "core.attributesfile" && value))) mayConvert = true;
  }
  const noFilters = [...names].flatMap((n) => [
    "-c",
    `filter.${n}.clean=`,
    "-c",
    `filter.${n}.smudge=`,
    "-c",
    `filter.${n}.process=`,
    "-c",
    `filter.${n}.required=false`,
  ]);
  return { noFilters, mayConvert };
}

/** Entries in an index file (its header's count), or 0 when unreadable. */
function indexEntries(index: string): number {
  try {
    const head = readFileSync(index).subarray(0, 12);
    return head.length === 12 ? head.readUInt32BE(8) : 0;
  } catch {
    return 0;
  }
}

/**
 * Records the work tree holding `cwd`, its objects in `store` (a folder of ours). Never throws:
 * outside git, too large, or git failing, the snapshot says why it has no tree.
 */
export function snapshotTree(cwd: string, store: string, debug: (line: string) => void = () => {}): TreeSnapshot {
  const repo = findRepo(cwd);
  if (!repo) return { root: cwd, skipped: "not a git work tree", time: new Date().toISOString() };
  // A work tree moved by the repository's config (core.worktree: a downloaded .git/config can point
  // it at a home) is not scanned and copied: its top must hold the repository's .git (folder or link file).
  if (!existsSync(join(repo.top, ".git")))
    return { root: cwd, skipped: "the work tree is not where its repository lives (core.worktree)", time: new Date().toISOString() };
  const time = new Date().toISOString();
  const entries = indexEntries(repo.index);
  if (entries > MAX_TREE_FILES) {
    debug(`checkpoint: ${repo.top} has ${entries} files, more than ${MAX_TREE_FILES}: Bash changes are not tracked there`);
    return { root: repo.top, skipped: `the repository is too large (${entries} files)`, time };
  }
  const index = join(store, `index-${process.pid}`);
  try {
    const env = storeEnv(store, repo, index);
    const config = cachedConfigFacts(repo);
    const exact = config.mayConvert || existsSync(join(repo.gitDir, "info", "attributes"));
    let tree: string | undefined;
    if (!exact) {
      // The user's index as a start: only files whose stat changed are hashed again.
      if (existsSync(repo.index)) copyFileSync(repo.index, index);
      const added = git([...config.noFilters, "add", "-A", "--verbose", "--ignore-errors", "--", "."], repo.top, env);
      // An attributes file anywhere (tracked, or new or changed as `add` reports) may have converted bytes: then hash exactly.
      if (added.ok && !attributesIn(repo.index, added.out.toString())) {
        const written = git(["write-tree"], repo.top, env);
        if (written.ok) tree = written.out.toString().trim();
      } else if (!added.ok) debug(`checkpoint: git add failed (${added.err}); hashing the files one by one`);
    }
    if (!tree) {
      const listed = git([...config.noFilters, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], repo.top, env);
      if (!listed.ok) return { root: repo.top, skipped: `git failed: ${listed.err}`, time };
      tree = hashEach(repo, [...new Set(listed.out.toString().split("\0").filter(Boolean))], env);
    }
    return tree ? { root: repo.top, tree, time } : { root: repo.top, skipped: "git could not record the files", time };
  } catch (err) {
    return { root: repo.top, skipped: `git failed: ${(err as Error).message}`, time };
  } finally {
    rmSync(index, { force: true });
  }
}

/**
 * Whether a .gitattributes file is in the user's index (its path bytes; index version 4
 * compresses paths, so there the answer is yes) or among the files `git add --verbose` added.
 */
function attributesIn(index: string, addOutput: string): boolean {
  if (/^add '(.*\/)?\.gitattributes'$/m.test(addOutput)) return true;
  try {
    const bytes = readFileSync(index);
    if (bytes.length >= 8 && bytes.readUInt32BE(4) >= 4) return true;
    const at = bytes.indexOf(".gitattributes\0");
    return at >= 0 && (at === 0 || bytes[at - 1] === 0x2f || bytes[at - 1] <= 0x20 || bytes[at - 2] === 0);
  } catch {
    return false;
  }
}

/** Every file hashed as its exact bytes (`hash-object --no-filters`), then a tree of them. */
function hashEach(repo: Repo, files: string[], env: Record<string, string>): string | undefined {
  const regular = files.filter((f) => {
    const s = statSync(join(repo.top, f), { throwIfNoEntry: false });
    return s?.isFile();
  });
  const hashed = git(["hash-object", "-w", "--no-filters", "--stdin-paths"], repo.top, env, regular.join("\n"));
  if (!hashed.ok) return undefined;
  const shas = hashed.out.toString().trim().split("\n");
  const info = regular.map((f, i) => `${statSync(join(repo.top, f)).mode & 0o111 ? "100755" : "100644"} ${shas[i]}\t${f}`).join("\n");
  rmSync(env.GIT_INDEX_FILE!, { force: true });
  const updated = git(["update-index", "--add", "--index-info"], repo.top, env, `${info}\n`);
  if (!updated.ok) return undefined;
  const written = git(["write-tree"], repo.top, env);
  return written.ok ? written.out.toString().trim() : undefined;
}

/** One file a rewind of Bash's changes restores or deletes. */
export interface TreeChange {
  path: string;
  /** The blob to restore; undefined: delete the file (Bash created it). */
  blob?: string;
  mode?: number;
}

/**
 * The files that differ between `before` and the work tree now: what Bash changed since. Links
 * and submodules are left out (restoring them is not a file write).
 */
export function treeChanges(before: TreeSnapshot, store: string, debug: (line: string) => void = () => {}): TreeChange[] | string {
  if (!before.tree) return before.skipped ?? "no tree";
  const now = snapshotTree(before.root, store, debug);
  if (!now.tree) return now.skipped ?? "no tree";
  const repo = findRepo(before.root);
  if (!repo) return "not a git work tree any more";
  const diff = git(["diff-tree", "-r", "-z", "--no-renames", before.tree, now.tree], repo.top, storeEnv(store, repo));
  if (!diff.ok) return `git failed: ${diff.err}`;
  const parts = diff.out.toString().split("\0");
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [oldMode, newMode, oldSha, , status] = parts[i]!.slice(1).split(" ");
    const path = join(repo.top, parts[i + 1]!);
    const isFile = (m: string | undefined) => m === "100644" || m === "100755";
    if (status === "A") {
      if (isFile(newMode)) changes.push({ path });
    } else if (isFile(oldMode)) changes.push({ path, blob: oldSha, mode: oldMode === "100755" ? 0o755 : 0o644 });
  }
  return changes;
}

/** A blob's bytes from our store (or the repository's, through the alternate). @throws Error when missing. */
export function readBlob(store: string, root: string, sha: string): Buffer {
  const repo = findRepo(root);
  if (!repo) throw new Error(`the git checkpoint of ${root} cannot be read (not a git work tree any more)`);
  const r = git(["cat-file", "blob", sha], repo.top, storeEnv(store, repo));
  if (!r.ok) throw new Error(`the git checkpoint object ${sha} cannot be read (${r.err})`);
  return r.out;
}
