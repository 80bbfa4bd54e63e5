/**
 * The grader's process mode: `mcp-init [FIXTURE]`.
 * FIXTURE is `{"id": <number>, "serverResponse": <JSON-RPC response or null>}`, from a JSON file,
 * a folder holding exactly one `.json` file, or stdin when absent. Prints one line:
 * `{"request": initializeRequest(id), "capabilities": serverResponse?.result?.capabilities ?? null}`.
 * Exit 2, with one stderr line and nothing on stdout, when the fixture is missing or unreadable.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { initializeRequest } from "../mcp/protocol.ts";

class FixtureError extends Error {}

function readFixtureText(path: string | undefined): string {
  if (path === undefined) return readFileSync(0, "utf8");
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new FixtureError(`fixture not found: ${path}`);
  }
  if (stat.isDirectory()) {
    const files = readdirSync(path).filter((f) => f.endsWith(".json"));
    if (files.length !== 1) throw new FixtureError(`fixture folder ${path} must hold exactly one .json file (found ${files.length})`);
    path = join(path, files[0]!);
  }
  return readFileSync(path, "utf8");
}

const USAGE = "usage: mcp-init [FIXTURE]   (FIXTURE: a JSON file, or a folder holding one; stdin when absent)";

export function runMcpInit(args: string[]): number {
  if (args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (args.length > 1 || args[0]?.startsWith("-")) {
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  if (args[0] === undefined && process.stdin.isTTY) {
    process.stderr.write(`mcp-init: no FIXTURE given and stdin is a terminal\n${USAGE}\n`);
    return 2;
  }
  let fixture: { id?: unknown; serverResponse?: any };
  try {
    const text = readFixtureText(args[0]);
    try {
      fixture = JSON.parse(text);
    } catch (err) {
      throw new FixtureError(`fixture ${args[0] ?? "<stdin>"} is not valid JSON: ${(err as Error).message}`);
    }
    if (!fixture || typeof fixture !== "object" || (typeof fixture.id !== "number" && typeof fixture.id !== "string")) {
      throw new FixtureError(`fixture ${args[0] ?? "<stdin>"} has no "id" (number)`);
    }
  } catch (err) {
    process.stderr.write(`mcp-init: ${(err as Error).message}\n`);
    return 2;
  }
  const capabilities = fixture.serverResponse?.result?.capabilities ?? null;
  process.stdout.write(JSON.stringify({ request: initializeRequest(fixture.id as number), capabilities }) + "\n");
  return 0;
}
