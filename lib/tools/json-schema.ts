/**
 * A user's JSON Schema, checked and compiled once with ajv (drafts 7, 2019-09 and 2020-12, chosen
 * by `$schema`; draft 7 when it names none), and the one-line description of why a value does not
 * match it. ajv is imported here only, lazily: a run without a schema never loads it.
 * A remote `$ref` is never fetched (no `loadSchema`): it fails to compile, as an invalid schema.
 */

/** A compiled schema: the schema itself, and a check that returns why a value fails it (undefined: it matches). */
export interface CompiledSchema {
  schema: Record<string, unknown>;
  check(value: unknown): string | undefined;
}

/** The schema could not be used; the message names the rule it broke. */
export class SchemaError extends Error {}

const DRAFTS: Record<string, "7" | "2019" | "2020"> = {
  "http://json-schema.org/draft-07/schema": "7",
  "https://json-schema.org/draft/2019-09/schema": "2019",
  "https://json-schema.org/draft/2020-12/schema": "2020",
};

/**
 * Compiles `schema` (already parsed from JSON).
 * @throws SchemaError when it is not an object, names an unsupported `$schema`, breaks its draft's
 *   meta-schema, or refers (`$ref`) to anything it does not hold itself.
 */
export async function compileSchema(schema: unknown): Promise<CompiledSchema> {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new SchemaError("a schema must be a JSON object");
  const root = schema as Record<string, unknown>;
  const named = typeof root.$schema === "string" ? root.$schema.replace(/#$/, "") : undefined;
  const draft = named === undefined ? "7" : DRAFTS[named];
  if (!draft) throw new SchemaError(`unsupported $schema "${String(root.$schema)}" (drafts 7, 2019-09 and 2020-12 are supported)`);
  const Ajv = await ajvClass(draft);
  // strict off: unknown keywords (a title in an odd place, vendor extensions) are annotations, as the drafts say.
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: false });
  let validate: ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
  try {
    validate = ajv.compile(root);
  } catch (err) {
    throw new SchemaError(((err as Error).message || String(err)).split("\n")[0]!);
  }
  return {
    schema: root,
    check(value) {
      if (validate(value)) return undefined;
      return (validate.errors ?? []).map((e) => `${pathOf(e.instancePath)}: ${e.message ?? "is invalid"}`).join("; ") || "root: is invalid";
    },
  };
}

async function ajvClass(draft: "7" | "2019" | "2020") {
  if (draft === "2020") return (await import("ajv/dist/2020")).default;
  if (draft === "2019") return (await import("ajv/dist/2019")).default;
  return (await import("ajv")).default;
}

/** A JSON Pointer into the value, as `root.items.0.name`. */
function pathOf(pointer: string): string {
  if (!pointer) return "root";
  return `root${pointer
    .split("/")
    .slice(1)
    .map((p) => `.${p.replace(/~1/g, "/").replace(/~0/g, "~")}`)
    .join("")}`;
}
