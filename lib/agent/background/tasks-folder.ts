/**
 * Where background tasks write their output, as Claude Code lays it out:
 * `<tmp>/claude-<uid>/<project slug>/<session id>/tasks/<task id>.output`. Every folder on the way
 * that we create is 0700, and one that exists must be a real folder of ours (not a symlink, not
 * another user's): another user of a shared /tmp must neither read the output nor plant a link.
 */
import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Claude Code's project slug: every character outside [A-Za-z0-9] becomes "-". */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/**
 * Creates (or checks) the session's tasks folder and returns its path.
 * @throws Error naming the folder when it cannot be made or is not safely ours.
 */
export function tasksFolder(cwd: string, sessionId: string, base = tmpdir()): string {
  const uid = process.getuid?.() ?? 0;
  let dir = join(base, `claude-${uid}`);
  for (const part of [projectSlug(cwd), sessionId.replace(/[^A-Za-z0-9-]/g, "-"), "tasks"]) {
    ownFolder(dir, uid);
    dir = join(dir, part);
  }
  ownFolder(dir, uid);
  return dir;
}

function ownFolder(dir: string, uid: number): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw new Error(`cannot create the background tasks folder ${dir}: ${(err as Error).message}`);
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`the background tasks folder ${dir} is not a folder`);
  if (process.getuid && st.uid !== uid) throw new Error(`the background tasks folder ${dir} belongs to another user`);
  // Ours but open to others (made by an older program): close it rather than refuse.
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
