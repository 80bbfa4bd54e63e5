/**
 * What the built-in tools remember from one call to the next within one conversation: Bash's
 * working directory, and which files the model has seen (the changed-on-disk rule). One per
 * conversation: a `-p` run, or an interactive session until `/clear`.
 */
import { statSync } from "node:fs";
import { FileSnapshots } from "./file-snapshots.ts";

export class ToolState {
  /** Files the model has Read, with how they were when it last saw them. */
  readonly files = new FileSnapshots();
  /** Where the next Bash call starts: where the last one ended (its final `pwd -P`). */
  shellCwd: string;

  /** `projectDir`: the working directory of the run (absolute); Bash starts and falls back there. */
  constructor(readonly projectDir: string) {
    this.shellCwd = projectDir;
  }

  /**
   * The directory the next Bash call runs in: `shellCwd`, or `projectDir` with a note for the
   * model when `shellCwd` is no longer a directory (deleted, or replaced by a file).
   */
  shellDirectory(): { cwd: string; note?: string } {
    if (this.shellCwd === this.projectDir || isDirectory(this.shellCwd)) return { cwd: this.shellCwd };
    const gone = this.shellCwd;
    this.shellCwd = this.projectDir;
    return { cwd: this.projectDir, note: `(The working directory ${gone} no longer exists; this command ran in the project directory ${this.projectDir}.)` };
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
