/**
 * The conformance client for the transport scenarios: the suite appends the server URL and sets
 * MCP_CONFORMANCE_SCENARIO; this writes a `.mcp.json` naming that URL as a `type: "http"` server in
 * a fresh folder and drives the real program's inspector there (`mcp list`, `mcp call`, with
 * `--elicitation accept-defaults` for the elicitation scenario).
 * Usage: http-client.ts <server-url>. Exit code: the inspector's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const PROGRAM = resolve(import.meta.dir, "../../your_program.sh");
const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";

/** What the inspector does for each scenario: the calls the suite's server checks for. */
const STEPS: Record<string, string[][]> = {
  initialize: [["mcp", "list"]],
  tools_call: [["mcp", "call", "conformance", "add_numbers", '{"a":2,"b":3}']],
  "sse-retry": [["mcp", "call", "conformance", "test_reconnection", "{}"]],
  // The suite's server asks for a form whose every field has a default; the policy sends them.
  "elicitation-sep1034-client-defaults": [["mcp", "call", "--elicitation", "accept-defaults", "conformance", "test_client_elicitation_defaults", "{}"]],
};

const steps = STEPS[scenario];
if (!steps) {
  process.stderr.write(`http-client: no steps for scenario ${scenario}\n`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "conformance-http-"));
let code = 0;
try {
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { conformance: { type: "http", url } } }));
  for (const args of steps) {
    const proc = Bun.spawn([PROGRAM, "--verbose", ...args], { cwd: dir, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
    code = await proc.exited;
    if (code !== 0) break;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
