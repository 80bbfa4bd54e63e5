/**
 * The request-metadata headers of Streamable HTTP in MCP 2026-07-28 (basic/transports/streamable-http
 * §Standard Request Headers, §Custom Headers from Tool Parameters, §Value Encoding; SEP-2243):
 * `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-{Name}` from a tool's `x-mcp-header` annotations, with the
 * Base64 sentinel for values that are not plain header-safe ASCII. Pure functions.
 */

/** One `x-mcp-header` annotation: the `properties` path to the value and the header's name part. */
export interface ParamHeader {
  path: string[];
  name: string;
}

/** RFC 9110 §5.1 `tchar`: the only characters a field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SENTINEL = /^=\?base64\?.*\?=$/s;
/** Visible ASCII, space and tab (RFC 9110 field values); leading/trailing whitespace is checked apart. */
const SAFE_VALUE = /^[\x20-\x7e\t]*$/;

/**
 * A header value as sent: as-is when plain header-safe ASCII, else `=?base64?<UTF-8 as Base64>?=`
 * (also for a plain value that looks like the sentinel). Used for `Mcp-Name` and `Mcp-Param-*`.
 */
export function encodeHeaderValue(value: string): string {
  const plain = SAFE_VALUE.test(value) && value === value.replace(/^[ \t]+|[ \t]+$/g, "") && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/**
 * The `x-mcp-header` annotations of a tool's `inputSchema`, or the reason the tool must be left out:
 * an empty or non-token name, a case-insensitive duplicate, a type other than string, integer or
 * boolean, or an annotation not reached through `properties` alone.
 */
export function paramHeaders(inputSchema: unknown): { headers: ParamHeader[] } | { invalid: string } {
  const headers: ParamHeader[] = [];
  const problem = walk(inputSchema, [], true, headers);
  if (problem) return { invalid: problem };
  const seen = new Set<string>();
  for (const h of headers) {
    const key = h.name.toLowerCase();
    if (seen.has(key)) return { invalid: `x-mcp-header "${h.name}" is declared twice` };
    seen.add(key);
  }
  return { headers };
}

function walk(schema: unknown, path: string[], reachable: boolean, out: ParamHeader[]): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const problem = walk(item, path, false, out);
      if (problem) return problem;
    }
    return undefined;
  }
  const node = schema as Record<string, unknown>;
  if ("x-mcp-header" in node) {
    const problem = checkAnnotation(node, path, reachable);
    if (problem) return problem;
    out.push({ path, name: node["x-mcp-header"] as string });
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [prop, sub] of Object.entries(value)) {
        const problem = walk(sub, [...path, prop], reachable, out);
        if (problem) return problem;
      }
    } else if (typeof value === "object" && value !== null) {
      // Any keyword but `properties` (items, oneOf, if/then, $defs…) leaves the statically reachable chain.
      const problem = walk(value, path, false, out);
      if (problem) return problem;
    }
  }
  return undefined;
}

function checkAnnotation(node: Record<string, unknown>, path: string[], reachable: boolean): string | undefined {
  const name = node["x-mcp-header"];
  const where = path.join(".");
  if (typeof name !== "string" || name === "") return `x-mcp-header of "${where}" is empty`;
  if (!TOKEN.test(name)) return `x-mcp-header ${JSON.stringify(name)} of "${where}" is not an HTTP token`;
  if (!reachable) return `x-mcp-header of "${where}" is not reached through properties alone`;
  if (!["string", "integer", "boolean"].includes(node.type as string))
    return `x-mcp-header of "${where}" is on a ${JSON.stringify(node.type ?? "untyped")} parameter`;
  return undefined;
}

/**
 * The `Mcp-Param-{Name}` headers for `args`: the value at each annotation's exact path, as-is for a
 * string, decimal for an integer, `true`/`false` for a boolean; omitted when absent or null.
 */
export function paramHeaderValues(headers: readonly ParamHeader[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    let value: unknown = args;
    for (const key of h.path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value === "string") out[`Mcp-Param-${h.name}`] = encodeHeaderValue(value);
    else if (typeof value === "number" || typeof value === "boolean") out[`Mcp-Param-${h.name}`] = String(value);
  }
  return out;
}

/** `Mcp-Name`'s source: `params.name` (tools/call, prompts/get), `params.uri` (resources/read), the taskId (tasks/*). */
export function nameOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  const value =
    method === "tools/call" || method === "prompts/get"
      ? params?.name
      : method === "resources/read"
        ? params?.uri
        : method.startsWith("tasks/")
          ? params?.taskId
          : undefined;
  return typeof value === "string" ? value : undefined;
}
