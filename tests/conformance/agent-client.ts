/**
 * The conformance client that is our real program: writes the `.mcp.json` a user would for the
 * scenario (context.ts), then runs `your_program.sh mcp call conformance test-tool {}` (which
 * initializes, lists tools and calls one), logging in through `$BROWSER` when asked.
 * At spec version 2026-07-28 the program runs with MCP_PROTOCOL_NEGOTIATION=auto (discovery first),
 * unless CONFORMANCE_NEGOTIATION=default.
 * Usage: agent-client.ts <server-url>; its exit code is the program's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { entryFor } from "./context.ts";
import { approveConformanceServer } from "./approve.ts";

const url = process.argv[2]!;
const dir = mkdtempSync(join(tmpdir(), "conformance-client-"));
writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { conformance: entryFor(url, process.env.MCP_CONFORMANCE_CONTEXT) } }));
const program = resolve(import.meta.dir, "../../your_program.sh");
await approveConformanceServer(program, dir);
const proc = Bun.spawn([program, "mcp", "call", "conformance", "test-tool", "{}", "--debug"], {
  cwd: dir,
  stdout: "inherit",
  stderr: "inherit",
  stdin: "ignore",
  env: {
    ...process.env,
    ...(process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === "2026-07-28" && process.env.CONFORMANCE_NEGOTIATION !== "default"
      ? { MCP_PROTOCOL_NEGOTIATION: "auto" }
      : {}),
  },
});
const code = await proc.exited;
rmSync(dir, { recursive: true, force: true });
process.exit(code);
