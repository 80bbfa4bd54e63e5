/**
 * MCP tool inputSchema → a Messages API `input_schema`. MCP (2025-11-25, server/tools#tool)
 * says inputSchema is a JSON Schema object, but real servers send none, omit the top-level
 * `type`, or use a top-level anyOf/oneOf/allOf, which the Messages API rejects.
 */
import type { InputSchema } from "../../tools/tool.ts";
import { isObject } from "../../shared/values.ts";

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

/**
 * Normalises an MCP inputSchema so its top level is `{"type": "object", ...}`:
 * - missing (undefined/null) → `{type: "object", properties: {}}`;
 * - no top-level `type` → `type: "object"` added; a `type` array containing "object" → "object";
 * - top-level anyOf/oneOf/allOf → the object branches' properties merged into one object schema
 *   (first definition of a property wins), `required` = intersection over anyOf/oneOf branches,
 *   union over allOf branches (plus the top level's own), and the combinator dropped.
 * Returns null when the schema cannot describe an object (not an object, a non-object `type`,
 * non-object `properties`, no object branch): the caller leaves the tool out. Never throws.
 */
export function normalizeInputSchema(schema: unknown): InputSchema | null {
  if (schema === undefined || schema === null) return { type: "object", properties: {} };
  if (!isObject(schema) || !describesObject(schema)) return null;
  const out: Record<string, unknown> = { ...schema, type: "object" };
  let properties: Record<string, unknown> = { ...(schema.properties as Record<string, unknown> | undefined) };
  let required = new Set(stringArray(schema.required));

  for (const combinator of COMBINATORS) {
    const branches = schema[combinator];
    if (branches === undefined) continue;
    delete out[combinator];
    if (!Array.isArray(branches)) return null;
    const objectBranches = branches.filter((b): b is Record<string, unknown> => isObject(b) && describesObject(b));
    // allOf needs every branch to hold; a non-object branch makes the whole schema non-object.
    if (objectBranches.length === 0 || (combinator === "allOf" && objectBranches.length !== branches.length)) return null;
    for (const branch of objectBranches) properties = { ...(branch.properties as Record<string, unknown>), ...properties };
    const branchRequired = objectBranches.map((b) => new Set(stringArray(b.required)));
    const merged =
      combinator === "allOf" ? branchRequired.reduce((acc, r) => acc.union(r), new Set<string>()) : branchRequired.reduce((acc, r) => acc.intersection(r));
    required = required.union(merged);
  }

  out.properties = properties;
  if (required.size > 0) out.required = [...required];
  else delete out.required;
  return out as InputSchema;
}

/** True when `s` can be (part of) an object schema: object-typed or untyped, with sane properties. */
function describesObject(s: Record<string, unknown>): boolean {
  const type = s.type;
  const typeOk = type === undefined || type === "object" || (Array.isArray(type) && type.includes("object"));
  return typeOk && (s.properties === undefined || isObject(s.properties));
}

function stringArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}
