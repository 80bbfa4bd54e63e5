/**
 * The conformance client for the skills-over-MCP scenarios (SEP-2640): the suite appends the
 * server URL and sets MCP_CONFORMANCE_SCENARIO. In a fresh folder with a `.mcp.json` naming
 * that URL, the real program's inspector lists the server's skills (`mcp skills`, which fetches
 * no file) and, for the verification scenarios, loads one (`mcp skill`), which must refuse the
 * tampered SKILL.md and read nothing more.
 * Usage: skills-client.ts <server-url>. Exit code: the last inspector run's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { approveConformanceServer } from "./approve.ts";

const PROGRAM = resolve(import.meta.dir, "../../your_program.sh");
const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const steps = [["mcp", "skills", "conformance"]];
if (scenario !== "sep-2640-client-no-prefetch") steps.push(["mcp", "skill", "conformance", "pdf-processing"]);
const dir = mkdtempSync(join(tmpdir(), "conformance-skills-"));
let code = 0;
try {
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { conformance: { type: "http", url } } }));
  await approveConformanceServer(PROGRAM, dir);
  for (const args of steps) {
    const proc = Bun.spawn([PROGRAM, "--verbose", ...args], { cwd: dir, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
    code = await proc.exited;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
