/**
 * The task list's files, in Claude Code's layout (CC-AGENT-NOTES §2.4): one folder per session,
 * `~/.claude/tasks/<session>/` (0700), a file `<id>.json` per task (two-space JSON), `.highwatermark`
 * holding the highest id deleted (ids are "1", "2", … and a deleted one is never issued again; as
 * Claude Code 2.1.x writes it, checked side by side), and `.lock`, the empty file whose mkdir(2)
 * lock (files/locked-write.ts, `.lock.lock`) is held while a change reads and writes, so two
 * processes on one session cannot issue the same id. A task file edited by hand into something that is not a task is
 * reported by its path, never guessed at.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigWriteError, withFileLockSync } from "../../files/locked-write.ts";
import { ToolError } from "../tool-error.ts";

export type TaskStatus = "pending" | "in_progress" | "completed";
export const STATUSES: readonly TaskStatus[] = ["pending", "in_progress", "completed"];

export interface Task {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  status: TaskStatus;
  blocks: string[];
  blockedBy: string[];
  owner?: string;
  metadata?: Record<string, unknown>;
}

/** One session's task list on disk. */
export class TaskStore {
  constructor(readonly dir: string) {}

  /**
   * Runs `fn` holding the folder's lock (the folder created 0700 on first use): as Claude Code does,
   * an empty file `.lock` is the lock's target and the mkdir lock of files/locked-write.ts
   * (`.lock.lock`, stale after 10 s) is taken on it.
   */
  locked<T>(fn: () => T): T {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const target = join(this.dir, ".lock");
    writeFileSync(target, "", { flag: "a", mode: 0o600 });
    try {
      return withFileLockSync(target, fn);
    } catch (err) {
      if (err instanceof ConfigWriteError) throw new ToolError(`The task list is locked by another program (${target}); try again.`);
      throw err;
    }
  }

  /** The task with `id`, undefined when there is none. @throws ToolError when its file is not a task. */
  get(id: string): Task | undefined {
    if (!/^\d+$/.test(id)) return undefined;
    const file = this.file(id);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
    const task = parseTask(text, file);
    // The file's own id names the file every later write goes to: one that is not this file's is refused.
    if (task.id !== id) throw new ToolError(`The task file ${file} holds the id "${task.id}", not ${id} (was it edited by hand?); fix it or delete it.`);
    return task;
  }

  /** Every task, by id; `broken` names the files that are not tasks. */
  list(): { tasks: Task[]; broken: { id: string; problem: string }[] } {
    const tasks: Task[] = [];
    const broken: { id: string; problem: string }[] = [];
    for (const id of this.ids()) {
      try {
        const task = this.get(id);
        if (task) tasks.push(task);
      } catch (err) {
        broken.push({ id, problem: (err as Error).message });
      }
    }
    return { tasks, broken };
  }

  /** A new task with the next id. */
  create(fields: Pick<Task, "subject" | "description" | "activeForm" | "metadata">): Task {
    return this.locked(() => {
      const id = String(Math.max(this.highWater(), ...this.ids().map(Number)) + 1);
      // Claude Code's key order: activeForm after the description.
      const task: Task = {
        id,
        subject: fields.subject,
        description: fields.description,
        ...(fields.activeForm !== undefined ? { activeForm: fields.activeForm } : {}),
        status: "pending",
        blocks: [],
        blockedBy: [],
        ...(fields.metadata !== undefined ? { metadata: fields.metadata } : {}),
      };
      this.write(task);
      return task;
    });
  }

  /** Writes `task` (a temporary file, then a rename: a reader never sees half of it). */
  write(task: Task): void {
    const file = this.file(task.id);
    const temp = `${file}.${process.pid}.tmp`;
    // Two-space JSON without a final newline, its keys in Claude Code's order.
    writeFileSync(temp, JSON.stringify(ordered(task), null, 2), { mode: 0o600 });
    renameSync(temp, file);
  }

  /** Removes a task's file and its id from the others' links; `.highwatermark` keeps the highest id deleted, so none is issued again. */
  remove(id: string): void {
    rmSync(this.file(id), { force: true });
    if (Number(id) > this.highWater()) writeFileSync(join(this.dir, ".highwatermark"), id);
    for (const other of this.list().tasks) {
      if (!other.blocks.includes(id) && !other.blockedBy.includes(id)) continue;
      this.write({ ...other, blocks: other.blocks.filter((b) => b !== id), blockedBy: other.blockedBy.filter((b) => b !== id) });
    }
  }

  /** The highest id deleted so far (0 when none). */
  private highWater(): number {
    return Number(readOr(join(this.dir, ".highwatermark"), "0").trim()) || 0;
  }

  private file(id: string): string {
    // Ids are decimal numbers: anything else would name a path, never a task of this folder.
    if (!/^\d+$/.test(id)) throw new ToolError(`"${id.slice(0, 40)}" is not a task id`);
    return join(this.dir, `${id}.json`);
  }

  private ids(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .map((n) => /^(\d+)\.json$/.exec(n)?.[1])
      .filter((id): id is string => id !== undefined)
      .sort((a, b) => Number(a) - Number(b));
  }
}

/** The order Claude Code writes a task's keys in; keys it does not know follow. */
const KEY_ORDER = ["id", "subject", "description", "activeForm", "owner", "status", "blocks", "blockedBy", "metadata"];

function ordered(task: Task): Record<string, unknown> {
  const source = task as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) if (source[key] !== undefined) out[key] = source[key];
  for (const [key, value] of Object.entries(source)) if (!(key in out) && value !== undefined) out[key] = value;
  return out;
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}

const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");

/** A task file's text as a task. @throws ToolError naming the file when it is not one. */
export function parseTask(text: string, file: string): Task {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ToolError(`The task file ${file} is not valid JSON (was it edited by hand?); fix it or delete it.`);
  }
  const t = doc as Partial<Task>;
  const ok =
    typeof doc === "object" &&
    doc !== null &&
    typeof t.id === "string" &&
    typeof t.subject === "string" &&
    typeof t.description === "string" &&
    STATUSES.includes(t.status as TaskStatus) &&
    strings(t.blocks ?? []) &&
    strings(t.blockedBy ?? []);
  if (!ok) throw new ToolError(`The task file ${file} is not a task (it needs id, subject, description and status); fix it or delete it.`);
  return { ...t, blocks: t.blocks ?? [], blockedBy: t.blockedBy ?? [] } as Task;
}
