export async function runInspector(_args: string[]): Promise<number> {
  process.stderr.write("mcp inspector: not built yet\n");
  return 1;
}
