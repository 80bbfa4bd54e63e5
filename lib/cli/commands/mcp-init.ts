/**
 * The grader's process mode: `mcp-init [FIXTURE]`.
 * FIXTURE is `{"id": <number>, "serverResponse": <JSON-RPC response or null>}`, from a JSON file,
 * a folder holding exactly one `.json` file, or stdin when absent. Prints one line:
 * `{"request": initializeRequest(id, {roots:{}, sampling:{}}), "capabilities": serverResponse?.result?.capabilities ?? null}`.
 * Exit 2, with one stderr line and nothing on stdout, when the fixture is missing or unreadable.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { initializeRequest } from "../../mcp/protocol/protocol.ts";
import { writeStdout } from "../io/stdout.ts";

class FixtureError extends Error {}

function readFixtureText(path: string | undefined): string {
  if (path === undefined) return readFileSync(0, "utf8");
  let stat: ReturnType<typeof statSync>;
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

/**
 * The course's capabilities for the grader's frame: fixed here, never derived from what the agent
 * offers, so the agent can offer more (elicitation) without this line moving.
 */
const GRADER_CAPABILITIES = { roots: {}, sampling: {} };

const USAGE = "usage: mcp-init [FIXTURE]   (FIXTURE: a JSON file, or a folder holding one; stdin when absent)";

/**
 * Runs `mcp-init [FIXTURE]` (args after `mcp-init`). Returns the exit code: 0 with the one JSON
 * line on stdout (or the usage, for --help); 2 for a usage error or a missing, unreadable or
 * invalid fixture, with one stderr line. The request is MCP 2025-11-25 basic/lifecycle `initialize`.
 */
export async function runMcpInit(args: string[]): Promise<number> {
  if (args[0] === "--help" || args[0] === "-h") {
    await writeStdout(USAGE + "\n");
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
    if (!text.trim()) throw new FixtureError(`fixture ${args[0] ?? "<stdin>"} is empty`);
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
  await writeStdout(JSON.stringify({ request: initializeRequest(fixture.id as number, GRADER_CAPABILITIES), capabilities }) + "\n");
  return 0;
}
