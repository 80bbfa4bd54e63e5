/** Small value helpers shared by every layer (no imports: anything may use them). */

/** A plain JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value's JSON type for a one-line message: "null", "undefined", "an array", "an object", "a string", "a number"… */
export function describeType(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

/** The message of anything thrown: an Error's `message`, else the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A single-line excerpt of untrusted text, for notes: control characters as spaces, at most `max` characters. */
export function preview(text: string, max = 120): string {
  const flat = text.slice(0, max + 1).replace(/[\x00-\x1f\x7f]/g, " ");
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
