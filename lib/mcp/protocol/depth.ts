/**
 * How deeply a peer's JSON may nest. A message nested past any stack (a tool schema 100 000
 * levels deep) parses, but every recursive walk after it (JSON.stringify of the model request,
 * schema readers) throws RangeError and took the whole run with it. The connection measures each
 * message once, without recursion, and fails the one request it answers instead.
 */

/** Deepest nesting of objects and arrays accepted in one message: far beyond any real schema or result. */
export const MAX_JSON_DEPTH = 1000;

/** True when `value` nests objects or arrays more than `limit` levels deep. Iterative: never overflows. */
export function nestedDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Cheap pre-check on the text: nesting past `limit` needs more than `limit` opening brackets. */
export function mayNestDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  return text.length > 2 * limit;
}
