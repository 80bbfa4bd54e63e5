/**
 * Helpers for the MCP task tests (MCP 2025-11-25, basic/utilities/tasks): the task fixture server
 * as an `.mcp.json` entry, what it received and when, and its HTTP form.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT } from "./run.ts";

export const TASK_SERVER = join(ROOT, "fixtures/servers/task-server.ts");

/** An `.mcp.json` entry starting fixtures/servers/task-server.ts with `flags`. */
export function taskServer(...flags: string[]) {
  return { command: BUN, args: [TASK_SERVER, ...flags] };
}

/** One message the task fixture received, with its arrival time (epoch ms). */
export interface Logged {
  at: number;
  msg: Record<string, any>;
}

/** Everything the fixture logged to `file` (`--log-file`), in order. */
export function taskLog(file: string): Logged[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(" ");
      return { at: Number(line.slice(0, space)), msg: JSON.parse(line.slice(space + 1)) };
    });
}

/** The requests of `method` in the log. */
export const sent = (file: string, method: string): Logged[] => taskLog(file).filter((l) => l.msg.method === method);

/** Gaps between consecutive entries, in ms. */
export const gaps = (entries: Logged[]): number[] => entries.slice(1).map((e, i) => e.at - entries[i]!.at);

/** The HTTP task fixture, started with `flags`: its /mcp URL and a stop. */
export async function httpTaskServer(...flags: string[]): Promise<{ url: string; stop(): void }> {
  const proc = Bun.spawn([BUN, TASK_SERVER, "--http", ...flags], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the HTTP task fixture exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  return { url: text.split("\n")[0]!, stop: () => proc.kill() };
}
