/**
 * The changed-on-disk rule: once the model has Read a file in this conversation, Edit and Write
 * on it are refused while the file on disk differs (size or mtime) from what the model last saw.
 * The guard is against changes from outside the agent (the user's editor, another process
 * between turns); the agent's own Write and Edit, and whatever a Bash call changes, count as seen.
 * A file the model never read is not tracked, so it is edited without any prior Read.
 */
import { statSync } from "node:fs";
import { ToolError } from "./tool-error.ts";

interface Snapshot {
  size: number;
  mtimeMs: number;
}

/** Per-path snapshots (absolute paths as the tools resolve them) for one conversation. */
export class FileSnapshots {
  private readonly seen = new Map<string, Snapshot>();

  /** `path` was just read: remember its size and mtime as the model now knows them. */
  read(path: string): void {
    const now = snapshot(path);
    if (now) this.seen.set(path, now);
    else this.seen.delete(path);
  }

  /** `path` turned out not to exist when Read: nothing of it is known any more. */
  forget(path: string): void {
    this.seen.delete(path);
  }

  /**
   * Before Edit or Write on `path`.
   * @throws ToolError saying what changed (size, mtime, or deleted) and to Read the file again,
   * when the model read `path` in this conversation and it has changed on disk since.
   */
  assertUnchanged(path: string): void {
    const then = this.seen.get(path);
    if (!then) return;
    const now = snapshot(path);
    if (sameSnapshot(then, now)) return;
    throw new ToolError(
      `${path} has changed on disk since you last read it (${describeChange(then, now)}), by something other than your own tools. ` +
        "Read it again before editing it, so the change is not overwritten.",
    );
  }

  /** The agent itself just wrote `path` (Write, Edit): the result counts as seen, if the file is tracked. */
  wrote(path: string): void {
    if (this.seen.has(path)) this.read(path);
  }

  /** Tracked paths that are as the model last saw them: the ones a Bash call may refresh. */
  unchanged(): string[] {
    return [...this.seen].filter(([path, then]) => sameSnapshot(then, snapshot(path))).map(([path]) => path);
  }

  /** After a Bash call: whatever it did to `paths` (from `unchanged()` before the call) counts as seen. */
  refresh(paths: string[]): void {
    for (const path of paths) if (this.seen.has(path)) this.read(path);
  }
}

function snapshot(path: string): Snapshot | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats ? { size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

function sameSnapshot(a: Snapshot, b: Snapshot | undefined): boolean {
  return b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function describeChange(then: Snapshot, now: Snapshot | undefined): string {
  if (!now) return "it has been deleted";
  const size = now.size === then.size ? `same size, ${now.size} bytes` : `size ${then.size} → ${now.size} bytes`;
  return `modified at ${new Date(now.mtimeMs).toISOString()}, ${size}`;
}
