/**
 * The conformance client for the transport scenarios: the suite appends the server URL and sets
 * MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_PROTOCOL_VERSION, MCP_CONFORMANCE_CONTEXT); this writes
 * a `.mcp.json` naming that URL as a `type: "http"` server in a fresh folder and drives the real
 * program's inspector there (`mcp list`, `mcp call`, with `--elicitation accept-defaults` where a
 * server asks for input). At spec version 2026-07-28 the entry says `"protocolVersion": "2026-07-28"`
 * (discovery first, as a user of a modern server would: the suite checks that every request carries
 * the envelope, which the course's `initialize` cannot); CONFORMANCE_NEGOTIATION=default runs the
 * default negotiation (`initialize` first) instead.
 * Usage: http-client.ts <server-url>. Exit code: the inspector's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { approveConformanceServer } from "./approve.ts";

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

const call = (tool: string, args = "{}", ...flags: string[]) => ["mcp", "call", ...flags, "conformance", tool, args];
const accept = "--elicitation";
Object.assign(STEPS, {
  "request-metadata": [["mcp", "list"], call("any_tool")],
  "sep-2322-client-request-state": ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"].map((t) =>
    call(t, "{}", accept, "accept-defaults"),
  ),
  "http-standard-headers": [
    call("test_headers"),
    call("my-hyphenated-tool"),
    ["mcp", "read", "conformance", "file:///path/to/file%20name.txt"],
    ["mcp", "prompt", "conformance", "test_prompt"],
  ],
  "http-custom-headers": contextCalls(),
  "http-invalid-tool-headers": [["mcp", "tools", "conformance"], call("valid_tool", '{"region":"us-west1"}')],
  "json-schema-ref-no-deref": [["mcp", "tools", "conformance"]],
  // The focal tool's inputSchema, as our client holds it, goes back verbatim to the echo tool (a step of its own below).
  "json-schema-2020-12-preservation": [],
} satisfies Record<string, string[][]>);

/** `mcp tools --json`, then the `mcp call` that hands the focal tool's inputSchema to `json_schema_echo`. */
async function echoSchemaStep(cwd: string): Promise<string[]> {
  const proc = Bun.spawn([PROGRAM, "mcp", "tools", "--json", "conformance"], { cwd, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const listed = JSON.parse(await new Response(proc.stdout).text()) as unknown;
  const tools = (Array.isArray(listed) ? listed : ((listed as { tools?: unknown[] }).tools ?? [])) as { name: string; inputSchema?: unknown }[];
  const focal = tools.find((t) => t.name !== "json_schema_echo");
  return call("json_schema_echo", JSON.stringify({ schema: focal?.inputSchema ?? {} }));
}

/** `mcp call` for each tool call the scenario's context names. */
function contextCalls(): string[][] {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { toolCalls?: { name: string; arguments: unknown }[] };
  return (context.toolCalls ?? []).map((c) => call(c.name, JSON.stringify(c.arguments)));
}

const steps = STEPS[scenario];
if (!steps) {
  process.stderr.write(`http-client: no steps for scenario ${scenario}\n`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "conformance-http-"));
let code = 0;
try {
  const discoverFirst = process.env.CONFORMANCE_NEGOTIATION !== "default" && process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === "2026-07-28";
  const entry = { type: "http", url, ...(discoverFirst ? { protocolVersion: "2026-07-28" } : {}) };
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { conformance: entry } }));
  await approveConformanceServer(PROGRAM, dir);
  if (scenario === "json-schema-2020-12-preservation") steps.push(await echoSchemaStep(dir));
  for (const args of steps) {
    const proc = Bun.spawn([PROGRAM, "--verbose", ...args], { cwd: dir, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
    code = await proc.exited;
    if (code !== 0) break;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
