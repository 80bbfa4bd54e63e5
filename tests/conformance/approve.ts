/**
 * The conformance clients write a `.mcp.json` as a user would; the inspector starts no project
 * server nobody approved, so each client first approves it the way a script does: `mcp approve`.
 */
export async function approveConformanceServer(program: string, cwd: string): Promise<void> {
  const proc = Bun.spawn([program, "mcp", "approve", "conformance"], { cwd, stdin: "ignore", stdout: "ignore", stderr: "inherit" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`mcp approve conformance exited with ${code}`);
}
