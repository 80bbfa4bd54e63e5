/**
 * `agent mcp approve <name>…`: the one way for a script to approve a repository's `.mcp.json`
 * servers without the session's question. It records the same answer the question does (Claude
 * Code's `enabledMcpjsonServers` and our fingerprint of the entry as written, so an entry changed
 * since is pending again). Starts nothing. Bad input is one line and exit 2.
 */
import { loadMcpConfig } from "../../../mcp/config/load.ts";
import { writeStdout } from "../../io/stdout.ts";
import { ourColoursOnly, visibleText } from "../../../shared/terminal-text.ts";

export const APPROVE_USAGE = "usage: agent mcp approve <name>…  (project servers of .mcp.json in this folder)";

// The last filter: a message may quote a config file or a server; only our colours reach the terminal.
const stderr = (line: string) => process.stderr.write(`${ourColoursOnly(line)}\n`);

/** Runs `mcp approve …argv`; returns the exit code. */
export async function runApprove(argv: string[]): Promise<number> {
  // A name given twice is approved (and named) once.
  const names = [...new Set(argv.filter((a) => a !== "--"))];
  if (!names.length || names.some((n) => n.startsWith("-"))) {
    stderr(APPROVE_USAGE);
    return 2;
  }
  const cwd = process.cwd();
  const { servers } = loadMcpConfig({ cwd, extra: [], strict: false });
  const { approveByName } = await import("../../../agent/project-approval.ts");
  const project = servers.filter((s) => s.origin?.scope === "project");
  let unknown: string[];
  try {
    unknown = await approveByName(project, cwd, names);
  } catch (err) {
    stderr(`mcp approve: ${(err as Error).message}`);
    return 1;
  }
  if (unknown.length) {
    const known = project.map((s) => s.name);
    stderr(
      `mcp approve: no project server (.mcp.json) named ${unknown.map((n) => `"${visibleText(n)}"`).join(", ")} here (project servers: ${known.length ? known.map(visibleText).join(", ") : "none"})`,
    );
    return 2;
  }
  await writeStdout(
    `Approved ${names.map((n) => `"${visibleText(n)}"`).join(", ")}: ${names.length === 1 ? "it starts" : "they start"} without a question from now on (the session and the mcp commands too; -p starts project servers anyway unless MCP_REQUIRE_APPROVAL=1), until .mcp.json changes ${names.length === 1 ? "its" : "their"} entr${names.length === 1 ? "y" : "ies"}.\n`,
  );
  return 0;
}
