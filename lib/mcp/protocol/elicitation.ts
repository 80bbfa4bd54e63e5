/**
 * Elicitation's wire shapes and its form schema (MCP 2025-11-25, client/elicitation): a server's
 * `requestedSchema` read into fields a form can show, the defaults SEP-1034 says are sent when
 * accepted unchanged, and the check of an answer before it goes back. Pure: no I/O, no UI.
 */
import { McpError } from "./errors.ts";
import { ErrorCode } from "./protocol.ts";

/** `elicitation/create` in form mode (`mode` absent means form). */
export interface FormElicitParams {
  mode?: "form";
  message: string;
  requestedSchema: { type?: "object"; properties?: Record<string, unknown>; required?: string[] };
}

/** `elicitation/create` in URL mode: the user is sent to `url`; the answer comes out of band. */
export interface UrlElicitParams {
  mode: "url";
  message: string;
  url: string;
  elicitationId: string;
}

export type ElicitParams = FormElicitParams | UrlElicitParams;

/**
 * URLElicitationRequiredError (MCP 2025-11-25, client/elicitation#url-elicitation-required-error):
 * a request fails with this code when the user must first complete the URL-mode elicitations in
 * its `data.elicitations`.
 */
export const URL_ELICITATION_REQUIRED = -32042;

/** The well-formed URL-mode requests of a -32042 error's `data` (`{elicitations: [...]}`); [] when none. */
export function requiredUrlElicitations(data: unknown): UrlElicitParams[] {
  const list = (data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list)) return [];
  return list.filter((e): e is UrlElicitParams => !!e && typeof e === "object" && typeof e.url === "string" && typeof (e.message ?? "") === "string");
}

/** One accepted value: the restricted primitives of requestedSchema. */
export type ElicitValue = string | number | boolean | string[];

/** The `ElicitResult`: `content` only with `accept` (form mode); URL mode accepts with no content. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, ElicitValue>;
}

/** One choice of an enum: the value sent and the label shown (`title`/`enumNames`, else the value). */
export interface EnumOption {
  value: string;
  label: string;
}

interface FieldBase {
  key: string;
  /** `title`, else the key. */
  label: string;
  description?: string;
  required: boolean;
}

/** A property of requestedSchema, one of the restricted kinds the specification allows. */
export type FormField =
  | (FieldBase & { kind: "string"; default?: string; minLength?: number; maxLength?: number; format?: "email" | "uri" | "date" | "date-time" })
  | (FieldBase & { kind: "number"; integer: boolean; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "enum"; options: EnumOption[]; default?: string })
  | (FieldBase & { kind: "multi"; options: EnumOption[]; default?: string[]; minItems?: number; maxItems?: number });

const FORMATS = new Set(["email", "uri", "date", "date-time"]);

/** True for URL mode; anything else is read as form mode. */
export function isUrlMode(params: ElicitParams): params is UrlElicitParams {
  return (params as { mode?: unknown }).mode === "url";
}

/**
 * The fields of a form-mode request, in the schema's property order.
 * @throws McpError -32602 (Invalid params) when the schema is not a flat object of the restricted kinds.
 */
export function formFields(params: FormElicitParams): FormField[] {
  const schema = params?.requestedSchema;
  if (!schema || typeof schema !== "object" || (schema.type !== undefined && schema.type !== "object"))
    throw invalid("requestedSchema must be an object schema");
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties ?? {}).map(([key, raw]) => readField(key, raw, required.has(key)));
}

function readField(key: string, raw: unknown, required: boolean): FormField {
  if (!raw || typeof raw !== "object") throw invalid(`property "${key}" is not a schema`);
  const p = raw as Record<string, unknown>;
  const base: FieldBase = { key, label: str(p.title) ?? key, required, ...(str(p.description) ? { description: str(p.description) } : {}) };
  if (p.type === "string" && (Array.isArray(p.enum) || Array.isArray(p.oneOf))) {
    const options = enumOptions(p.enum ?? p.oneOf, p.enumNames);
    if (!options) throw invalid(`property "${key}" has malformed enum choices`);
    return { ...base, kind: "enum", options, ...(typeof p.default === "string" ? { default: p.default } : {}) };
  }
  switch (p.type) {
    case "string": {
      const format = str(p.format);
      return {
        ...base,
        kind: "string",
        ...(typeof p.default === "string" ? { default: p.default } : {}),
        ...(num(p.minLength) !== undefined ? { minLength: num(p.minLength) } : {}),
        ...(num(p.maxLength) !== undefined ? { maxLength: num(p.maxLength) } : {}),
        ...(format && FORMATS.has(format) ? { format: format as "email" } : {}),
      };
    }
    case "number":
    case "integer":
      return {
        ...base,
        kind: "number",
        integer: p.type === "integer",
        ...(num(p.default) !== undefined ? { default: num(p.default) } : {}),
        ...(num(p.minimum) !== undefined ? { minimum: num(p.minimum) } : {}),
        ...(num(p.maximum) !== undefined ? { maximum: num(p.maximum) } : {}),
      };
    case "boolean":
      return { ...base, kind: "boolean", ...(typeof p.default === "boolean" ? { default: p.default } : {}) };
    case "array": {
      const items = (p.items ?? {}) as Record<string, unknown>;
      const options = enumOptions(items.enum ?? items.anyOf ?? items.oneOf, items.enumNames);
      if (!options) throw invalid(`property "${key}" is an array without enum items`);
      const def = Array.isArray(p.default) && p.default.every((v) => typeof v === "string") ? (p.default as string[]) : undefined;
      return {
        ...base,
        kind: "multi",
        options,
        ...(def ? { default: def } : {}),
        ...(num(p.minItems) !== undefined ? { minItems: num(p.minItems) } : {}),
        ...(num(p.maxItems) !== undefined ? { maxItems: num(p.maxItems) } : {}),
      };
    }
    default:
      throw invalid(`property "${key}" has type ${JSON.stringify(p.type)}, not string, number, integer, boolean or array`);
  }
}

/** `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{const, title}`; undefined when malformed. */
function enumOptions(list: unknown, names: unknown): EnumOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const labels = Array.isArray(names) ? names : [];
  const options: EnumOption[] = [];
  for (const [i, item] of list.entries()) {
    if (typeof item === "string") options.push({ value: item, label: str(labels[i]) ?? item });
    else if (item && typeof item === "object" && typeof (item as { const?: unknown }).const === "string") {
      const { const: value, title } = item as { const: string; title?: unknown };
      options.push({ value, label: str(title) ?? value });
    } else return undefined;
  }
  return options;
}

/** The schema's defaults, by key (SEP-1034): what an unchanged, accepted form sends. */
export function formDefaults(fields: FormField[]): Record<string, ElicitValue> {
  const content: Record<string, ElicitValue> = {};
  for (const f of fields) if (f.default !== undefined) content[f.key] = f.default;
  return content;
}

/** Why `value` does not fit `field`, or undefined when it does. */
export function fieldError(field: FormField, value: ElicitValue | undefined): string | undefined {
  if (value === undefined) return field.required ? `${field.label} is required` : undefined;
  switch (field.kind) {
    case "string": {
      if (typeof value !== "string") return `${field.label} must be text`;
      if (field.minLength !== undefined && value.length < field.minLength) return `${field.label} needs at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `${field.label} takes at most ${field.maxLength} characters`;
      return field.format && !FORMAT_CHECKS[field.format](value) ? `${field.label} must be ${FORMAT_NAMES[field.format]}` : undefined;
    }
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return `${field.label} must be a number`;
      if (field.integer && !Number.isInteger(value)) return `${field.label} must be a whole number`;
      if (field.minimum !== undefined && value < field.minimum) return `${field.label} must be at least ${field.minimum}`;
      return field.maximum !== undefined && value > field.maximum ? `${field.label} must be at most ${field.maximum}` : undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${field.label} must be yes or no`;
    case "enum":
      return typeof value === "string" && field.options.some((o) => o.value === value) ? undefined : `${field.label} must be one of the choices`;
    case "multi": {
      if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v))) return `${field.label} must be among the choices`;
      if (field.minItems !== undefined && value.length < field.minItems) return `${field.label} needs at least ${field.minItems} choices`;
      return field.maxItems !== undefined && value.length > field.maxItems ? `${field.label} takes at most ${field.maxItems} choices` : undefined;
    }
  }
}

/** Every field's problem with `content`, in field order; empty when it may be sent. */
export function contentErrors(fields: FormField[], content: Record<string, ElicitValue>): string[] {
  return fields.map((f) => fieldError(f, content[f.key])).filter((e): e is string => e !== undefined);
}

const FORMAT_NAMES = { email: "an email address", uri: "a URI", date: "a date (YYYY-MM-DD)", "date-time": "a date and time (ISO 8601)" } as const;
const FORMAT_CHECKS: Record<keyof typeof FORMAT_NAMES, (v: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  uri: (v) => URL.canParse(v) && /^[a-z][a-z0-9+.-]*:/i.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  "date-time": (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
};

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `elicitation/create: ${message}`);
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}
