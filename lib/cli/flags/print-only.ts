/**
 * Flags that shape a printed answer (`--json-schema`, `--output-format json|stream-json`) mean
 * nothing to the interactive session: one stderr line each says so before it starts, rather than
 * a session that seems to honour them.
 */
import type { CliArgs } from "./args.ts";

export function sessionIgnoredFlagLines(args: Pick<CliArgs, "jsonSchema" | "outputFormat">): string[] {
  const lines: string[] = [];
  if (args.jsonSchema !== undefined) lines.push("note: --json-schema shapes the answer of -p and host mode; the interactive session ignores it");
  if (args.outputFormat !== "text") lines.push(`note: --output-format ${args.outputFormat} is for -p and host mode; the interactive session ignores it`);
  return lines;
}
