/**
 * A JSON Schema (an MCP tool's inputSchema property, MCP 2025-11-25 server/tools) as a short
 * TypeScript-like type for `mcp tools`: `string`, `"a" | "b"`, `boolean | string`, `string[]`,
 * `(number | null)[]`, `Address` for a `$ref`. What it cannot read is `any`. Pure; never throws.
 */

/** Nesting below this depth reads as `any`: schemas come from servers and may be huge. */
const MAX_DEPTH = 4;

/**
 * The type `schema` describes: `$ref` → the last segment of the reference (`#/$defs/Address` →
 * `Address`); `const` and `enum` → their values as JSON, joined with ` | `; `anyOf`/`oneOf` →
 * their alternatives; `type` (a name or a list of names) → those names, `array` as `<items>[]`;
 * anything else → `any`. Repeated alternatives are shown once.
 */
export function schemaType(schema: unknown): string {
  return alternativesOf(schema, 0).join(" | ");
}

function alternativesOf(schema: unknown, depth: number): string[] {
  if (depth > MAX_DEPTH || typeof schema !== "object" || schema === null || Array.isArray(schema)) return ["any"];
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string") return [s.$ref.split("/").pop() || s.$ref];
  if ("const" in s) return [JSON.stringify(s.const) ?? "any"];
  if (Array.isArray(s.enum) && s.enum.length > 0) return union(s.enum.map((v) => [JSON.stringify(v) ?? "any"]));
  const options = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (options && options.length > 0) return union(options.map((o) => alternativesOf(o, depth + 1)));
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type.filter((t) => typeof t === "string") : [];
  if (types.length === 0) return ["any"];
  return union(types.map((t) => [t === "array" ? arrayOf(s.items, depth) : t]));
}

function arrayOf(items: unknown, depth: number): string {
  const item = alternativesOf(items, depth + 1);
  return item.length > 1 ? `(${item.join(" | ")})[]` : `${item[0]}[]`;
}

/** The alternatives once each, in order; any alternative that is `any` makes the whole `any`. */
function union(parts: string[][]): string[] {
  const unique = [...new Set(parts.flat())];
  return unique.includes("any") ? ["any"] : unique;
}
