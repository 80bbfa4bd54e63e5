/**
 * Reading a tool_use `input` object: typed fields with one-line errors the model can act on,
 * and file paths resolved against the call's working directory.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { ToolError } from "./tool-error.ts";

type Input = Record<string, unknown>;

/**
 * The string field `key`. Throws ToolError when it is missing or not a string
 * (empty strings are allowed: Edit's old_string may be "").
 */
export function requiredString(input: Input, key: string): string {
  const value = input[key];
  if (typeof value !== "string") throw new ToolError(`Invalid input: "${key}" is required and must be a string`);
  return value;
}

/** The string field `key`, or undefined when absent/null. Throws ToolError when it has another type. */
export function optionalString(input: Input, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ToolError(`Invalid input: "${key}" must be a string`);
  return value;
}

/**
 * The integer field `key` (a numeric string is accepted too, as models sometimes quote numbers),
 * or undefined when absent/null. Throws ToolError when it is not an integer ≥ `min`.
 */
export function optionalInteger(input: Input, key: string, min = 0): number | undefined {
  let value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) value = Number(value.trim());
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new ToolError(`Invalid input: "${key}" must be an integer ≥ ${min}`);
  }
  return value;
}

/** The boolean field `key` ("true"/"false" strings accepted), or `fallback` when absent/null. */
export function optionalBoolean(input: Input, key: string, fallback = false): boolean {
  const value = input[key];
  if (value === undefined || value === null) return fallback;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new ToolError(`Invalid input: "${key}" must be a boolean`);
}

/**
 * An absolute path for `path` as the model wrote it: `~` and `~/x` expand to the home
 * directory (as in a shell), anything relative resolves against `cwd`.
 */
export function resolvePath(cwd: string, path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return resolve(cwd, path);
}

/** The error code of a Node fs error (`ENOENT`, `EACCES`...), or undefined. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
