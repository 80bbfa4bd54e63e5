/**
 * Carrying out a rewind plan so that it happens whole or not at all, even across a kill -9:
 *   1. check every file first (a folder where the file was, a read-only file, a backup missing or
 *      damaged, a parent folder that now resolves elsewhere, changes by the user): any problem is
 *      one line and nothing is changed;
 *   2. write a journal listing each file and its temporary file, then write each new content to
 *      its temporary file beside the file (same folder, so the rename is atomic);
 *   3. mark the journal "committing", then rename each temporary file over its file (a symlink
 *      planted there is replaced itself, never written through) or unlink a file that did not
 *      exist then (unlink removes a link, never its target);
 *   4. remove the journal.
 * A journal left by a crash is finished at the next start (`recoverRewind`): "staging" drops the
 * temporary files (nothing was changed), "committing" completes the renames. At every moment each
 * file holds either its old or its new content.
 */
import { existsSync, fsyncSync, lstatSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { type FileStep, readTarget, type RewindPlan } from "./plan.ts";
import { type BackupStore, realParent } from "./store.ts";

const JOURNAL = "rewind-journal.json";

interface Journal {
  state: "staging" | "committing";
  files: { path: string; temp: string | null }[];
}

/** A rewind that cannot be done as asked: one line, nothing changed. */
export class RewindError extends Error {}

/**
 * Checks `plan` and returns the problems that stop it (one line each), without changing anything.
 * `overwrite`: go on over files the user changed since.
 */
export function rewindProblems(plan: RewindPlan, store: BackupStore, overwrite: boolean): string[] {
  const problems: string[] = [];
  const changed = plan.steps.filter((s) => s.changedByUser).map((s) => s.path);
  if (changed.length && !overwrite) problems.push(`changed since by someone other than the agent: ${changed.join(", ")}`);
  for (const step of plan.steps) {
    const problem = stepProblem(step, store);
    if (problem) problems.push(problem);
  }
  return problems;
}

function stepProblem(step: FileStep, store: BackupStore): string | undefined {
  const { path, target, now } = step;
  if (now === "directory") return `${path} is now a folder; not replacing it`;
  if (now === "other") return `${path} is not a regular file any more; not replacing it`;
  if (target.hashOnly) return `${path} was larger than 50 MB when kept, so only its hash was recorded; it cannot be restored`;
  if (typeof now === "string" && now !== "symlink" && (lstatSync(path).mode & 0o200) === 0) return `${path} is read-only; not replacing it`;
  const parent = realParent(path);
  if (target.realParentDir && parent && parent !== target.realParentDir) return `the folder of ${path} now leads to ${parent}; not writing through it`;
  // A file from the git tree: no folder between the repository's top and it may have become a link
  // (a command replacing sub/ by a link to elsewhere would have the rewind write or delete there).
  const link = target.root ? linkedFolder(path, target.root) : undefined;
  if (link) return `${link} is now a symbolic link; not writing or deleting through it`;
  if (target.backupFileName !== null) {
    try {
      readTarget(target, store);
    } catch (err) {
      return `${path}: ${(err as Error).message}`;
    }
  }
  return undefined;
}

/**
 * Applies `plan` (see the file comment). Returns the files changed.
 * @throws RewindError listing what stops it (nothing changed), or naming the file that failed.
 */
export function applyRewind(plan: RewindPlan, store: BackupStore, overwrite: boolean): FileStep[] {
  const problems = rewindProblems(plan, store, overwrite);
  if (problems.length) throw new RewindError(`rewind refused, nothing changed: ${problems.join("; ")}`);
  if (!plan.steps.length) return [];
  recoverRewind(store.dir);
  const files = plan.steps.map((s) => ({ path: s.path, temp: s.target.backupFileName === null ? null : tempBeside(s.path) }));
  const journal = join(store.dir, JOURNAL);
  mkdirSync(store.dir, { recursive: true, mode: 0o700 });
  writeJournal(journal, { state: "staging", files });
  try {
    plan.steps.forEach((step, i) => {
      const temp = files[i]!.temp;
      if (!temp) return;
      mkdirSync(dirname(step.path), { recursive: true });
      const mode = existsSync(step.path) && step.now !== "symlink" ? lstatSync(step.path).mode & 0o7777 : (step.target.mode ?? 0o644);
      writeFileSync(temp, readTarget(step.target, store), { mode });
      fsync(temp);
    });
  } catch (err) {
    for (const f of files) if (f.temp) rmSync(f.temp, { force: true });
    rmSync(journal, { force: true });
    throw new RewindError(`rewind failed before changing anything: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  writeJournal(journal, { state: "committing", files });
  commit(files);
  rmSync(journal, { force: true });
  return plan.steps;
}

/** Finishes a rewind a crash cut short in session folder `dir`; returns how many files it completed (0: none was pending). */
export function recoverRewind(dir: string): number {
  const path = join(dir, JOURNAL);
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(path, "utf8")) as Journal;
  } catch {
    return 0;
  }
  if (journal.state === "committing") commit(journal.files);
  else for (const f of journal.files) if (f.temp) rmSync(f.temp, { force: true });
  rmSync(path, { force: true });
  return journal.state === "committing" ? journal.files.length : 0;
}

function commit(files: Journal["files"]): void {
  const pause = process.env.AGENT_TEST_REWIND_PAUSE;
  files.forEach((f, i) => {
    if (f.temp) {
      // Already renamed before a crash: the file holds its new content.
      if (existsSync(f.temp)) renameSync(f.temp, f.path);
    } else if (lstatSync(f.path, { throwIfNoEntry: false })) unlinkSync(f.path);
    // Tests only: stop between two files, so a kill -9 lands mid-rewind.
    if (pause && i === 0 && files.length > 1) {
      writeFileSync(pause, "paused\n");
      for (;;) Bun.sleepSync(1000);
    }
  });
}

/** The first folder between `root` and `path` (exclusive) that is a symbolic link, outermost first. */
function linkedFolder(path: string, root: string): string | undefined {
  const rel = relative(root, dirname(path));
  if (!rel || rel.startsWith("..")) return undefined;
  let at = root;
  for (const part of rel.split("/")) {
    at = join(at, part);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (!st) return undefined;
    if (st.isSymbolicLink()) return at;
  }
  return undefined;
}

function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.rewind-${process.pid}-${crypto.randomUUID().slice(0, 8)}.tmp`);
}

function writeJournal(path: string, journal: Journal): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(journal), { mode: 0o600 });
  fsync(temp);
  renameSync(temp, path);
}

function fsync(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
