/**
 * One definition per built-in tool input: the JSON Schema the model is shown and the parser
 * that reads what it sends come from the same field list, so they cannot drift apart (a
 * `minimum: 1` declared is a minimum of 1 parsed). Also the display summaries tools declare.
 */
import { isAbsolute, relative } from "node:path";
import { optionalBoolean, optionalInteger, optionalString, requiredString } from "./input.ts";
import type { InputSchema } from "./tool.ts";
import { ToolError } from "./tool-error.ts";

interface Described {
  description: string;
  required?: boolean;
}
export interface StringField extends Described {
  type: "string";
  enum?: readonly string[];
}
export interface IntegerField extends Described {
  type: "integer";
  /** Smaller values are refused (default 0). */
  minimum?: number;
  /** Larger values are brought down to it: the model asked for more than we allow, not for something wrong. */
  maximum?: number;
}
export interface BooleanField extends Described {
  type: "boolean";
  /** The value when absent (default false); shown in the schema when given. */
  default?: boolean;
}
export type Field = StringField | IntegerField | BooleanField;
export type Fields = Record<string, Field>;

type Value<F extends Field> = F extends StringField ? string : F extends IntegerField ? number : boolean;

/** What `parse` returns: required fields and booleans always present, other optional fields possibly undefined. */
export type Parsed<S extends Fields> = {
  [K in keyof S]: S[K] extends { required: true } ? Value<S[K]> : S[K] extends BooleanField ? boolean : Value<S[K]> | undefined;
};

export interface ToolInput<S extends Fields> {
  /** The Messages API `input_schema`: an object of exactly these fields (additionalProperties false). */
  schema: InputSchema;
  /**
   * Reads a tool_use `input` by the same fields: types checked (numeric and boolean strings
   * accepted, as models sometimes quote them), minimums enforced, maximums applied, enums checked.
   * @throws ToolError naming the field, e.g. `Invalid input: "offset" must be an integer ≥ 1`.
   */
  parse(input: Record<string, unknown>): Parsed<S>;
}

/** The schema and the parser of one tool's input, from one field list. */
export function toolInput<const S extends Fields>(fields: S): ToolInput<S> {
  const properties: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(fields)) {
    properties[key] = {
      type: f.type,
      ...(f.type === "string" && f.enum ? { enum: f.enum } : {}),
      ...(f.type === "integer" ? { minimum: f.minimum ?? 0, ...(f.maximum === undefined ? {} : { maximum: f.maximum }) } : {}),
      ...(f.type === "boolean" && f.default !== undefined ? { default: f.default } : {}),
      description: f.description,
    };
  }
  const required = Object.keys(fields).filter((k) => fields[k]!.required);
  const schema: InputSchema = { type: "object", properties, required, additionalProperties: false };
  const parse = (input: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [key, f] of Object.entries(fields)) out[key] = parseField(input, key, f);
    return out as Parsed<S>;
  };
  return { schema, parse };
}

function parseField(input: Record<string, unknown>, key: string, f: Field): unknown {
  if (f.required && (input[key] === undefined || input[key] === null)) {
    throw new ToolError(`Invalid input: "${key}" is required and must be ${f.type === "integer" ? "an integer" : `a ${f.type}`}`);
  }
  switch (f.type) {
    case "string": {
      const value = f.required ? requiredString(input, key) : optionalString(input, key);
      if (value !== undefined && f.enum && !f.enum.includes(value)) throw new ToolError(`Invalid input: "${key}" must be one of ${f.enum.join(", ")}`);
      return value;
    }
    case "integer": {
      const value = optionalInteger(input, key, f.minimum ?? 0);
      return value !== undefined && f.maximum !== undefined ? Math.min(value, f.maximum) : value;
    }
    case "boolean":
      return optionalBoolean(input, key, f.default ?? false);
  }
}

/**
 * A display summary showing one field: a path relative to `cwd` when inside it (`kind: "path"`),
 * or the text as written. Undefined when the field is not a string, so the caller falls back.
 */
export function summarizeField(key: string, kind: "path" | "text" = "text"): (input: Record<string, unknown>, cwd: string) => string | undefined {
  return (input, cwd) => {
    const value = input[key];
    if (typeof value !== "string") return undefined;
    if (kind === "text" || !isAbsolute(value)) return value;
    const rel = relative(cwd, value);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : value;
  };
}
