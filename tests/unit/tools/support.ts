/**
 * Helpers for the built-in tool tests: a ToolContext on a real directory, the text of a result,
 * and a process liveness check that sees zombies as dead.
 */
import { existsSync, readFileSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { ToolContext, ToolOutput } from "../../../lib/tools/tool.ts";

export function ctxFor(cwd: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  return { cwd, signal };
}

/** The text of a result whose content is a string (fails the test otherwise). */
export function textOf(out: ToolOutput): string {
  if (typeof out.content !== "string") throw new Error(`expected string content, got ${JSON.stringify(out.content).slice(0, 200)}`);
  return out.content;
}

/** The message a rejected promise carries (fails when it resolves). */
export async function errorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the call to throw");
}

/** Zombie-aware liveness, shared with the other suites. */
export { isAlive as isRunning } from "../../support/run.ts";

/** Resolves once `path` exists (awaits the directory's change events; no polling). */
export function fileAppears(path: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name === basename(path) && existsSync(path)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}

/** The pid written in `path` (as `echo $! > path` does). */
export function pidIn(path: string): number {
  const pid = Number(readFileSync(path, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no pid in ${path}`);
  return pid;
}
