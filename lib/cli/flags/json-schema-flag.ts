/**
 * `--json-schema <schema JSON or file>` (Claude Code's flag; the Agent SDK passes its
 * `outputFormat.schema` through it): read, parsed and compiled before any server starts or any
 * model call, so a bad schema is one usage line and exit 2, never a run that ignores it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { compileSchema, SchemaError, type CompiledSchema } from "../../tools/json-schema.ts";
import { UsageError } from "./args.ts";

/**
 * The compiled schema of the flag's value: JSON text when it starts with `{`, else a file's path
 * (relative to `cwd`).
 * @throws UsageError naming what is wrong: an unreadable file, invalid JSON, a top level that is
 *   not an object schema (the model fills in a tool's input, which is an object), an invalid schema.
 */
export async function readJsonSchemaFlag(value: string, cwd: string): Promise<CompiledSchema> {
  let text = value;
  let where = "--json-schema";
  if (!value.trimStart().startsWith("{")) {
    where = `--json-schema ${value}`;
    try {
      text = readFileSync(resolve(cwd, value), "utf8");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        `${where}: ${code === "ENOENT" ? "no such file (give the schema as JSON text or a file's path)" : `cannot read the file (${code ?? "error"})`}`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${where}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && (parsed as { type?: unknown }).type !== "object") {
    throw new UsageError(`${where}: the schema's top level must have "type": "object" (the answer is a tool call's input, which is an object)`);
  }
  try {
    return await compileSchema(parsed);
  } catch (err) {
    if (err instanceof SchemaError) throw new UsageError(`${where}: not a valid JSON Schema: ${err.message}`);
    throw err;
  }
}
