/**
 * Helpers for the SEP-2663 task tests (MCP 2026-07-28, extension `io.modelcontextprotocol/tasks`):
 * fixtures/servers/tasks2026-server.ts as an `.mcp.json` entry over stdio or HTTP, and what it
 * received (its `--log`: one JSON line per message, with the HTTP routing headers).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT } from "./run.ts";

export const TASKS2026_SERVER = join(ROOT, "fixtures/servers/tasks2026-server.ts");

/** One received message: its method, params and (HTTP) `Mcp-Method`/`Mcp-Name` headers. */
export interface Received {
  method: string;
  params: Record<string, any>;
  headers?: { "mcp-method": string | null; "mcp-name": string | null };
}

const started: { kill(): void }[] = [];

/** Stops every HTTP fixture started so far (for afterEach). */
export function stopTasks2026(): void {
  for (const p of started.splice(0)) p.kill();
}

/** An `.mcp.json` entry for the fixture with `flags`, logging to `log`; HTTP ones are stopped by `stopTasks2026`. */
export async function tasks2026Entry(transport: "stdio" | "http", log: string, ...flags: string[]): Promise<Record<string, unknown>> {
  const args = [TASKS2026_SERVER, "--log", log, ...flags];
  if (transport === "stdio") return { command: BUN, args };
  const proc = Bun.spawn([BUN, ...args, "--http"], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  started.push(proc);
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the SEP-2663 fixture exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  return { type: "http", url: text.split("\n")[0]! };
}

/** Everything the fixture logged, in order. */
export function received(log: string): Received[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Received);
}

/** The received requests of `method`. */
export const ofMethod = (log: string, method: string): Received[] => received(log).filter((r) => r.method === method);

/** The client capabilities a request declared in its `_meta` envelope. */
export const declaredCapabilities = (r: Received): Record<string, any> => r.params._meta?.["io.modelcontextprotocol/clientCapabilities"];
