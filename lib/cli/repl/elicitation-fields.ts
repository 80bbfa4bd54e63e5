/**
 * One field of an elicitation form as the interactive session asks it (MCP 2025-11-25,
 * client/elicitation, form mode): the question with its type hint, the lines shown above it
 * (description, numbered choices), the text pre-filled in the line editor, and the typed text
 * read back into a value. Checking the value against the schema is `fieldError`'s
 * (lib/mcp/protocol/elicitation.ts); this file only turns text into values and back. Pure: no I/O.
 */
import type { ElicitValue, EnumOption, FormField } from "../../mcp/protocol/elicitation.ts";

/** What is asked for one field. */
export interface FieldQuestion {
  /** `Name (text, required): `, ended by a space for the answer. */
  prompt: string;
  /** Shown above the question: the description, then an enum's numbered choices. */
  body: string[];
  /** Pre-filled, editable text: `value` as typed (Enter keeps it), "" when there is none. */
  initial: string;
}

/** The typed text read as a value: `value` undefined means the field is left out; `error` says why the text is unreadable. */
export type ReadResult = { value: ElicitValue | undefined } | { error: string };

/** The question for `field`, pre-filled with `value` (the schema's default, or an earlier answer). */
export function fieldQuestion(field: FormField, value: ElicitValue | undefined): FieldQuestion {
  const body: string[] = [];
  if (field.description) body.push(`    ${field.description}`);
  if (field.kind === "enum" || field.kind === "multi") body.push(...field.options.map((o, i) => `      ${i + 1}. ${optionText(o)}`));
  const hint = [typeHint(field), ...(field.required ? ["required"] : [])].join(", ");
  return { prompt: `${field.label} (${hint}): `, body, initial: value === undefined ? "" : showValue(field, value, "number") };
}

/** The kind of answer expected, with its limits: `text, email address`, `whole number 1–100`, `y/n`, `number`, `numbers, 1–3 choices`. */
export function typeHint(field: FormField): string {
  switch (field.kind) {
    case "string": {
      const parts = ["text"];
      if (field.format) parts.push(FORMAT_HINTS[field.format]);
      if (field.minLength !== undefined || field.maxLength !== undefined) parts.push(`${range(field.minLength, field.maxLength)} characters`);
      return parts.join(", ");
    }
    case "number": {
      const name = field.integer ? "whole number" : "number";
      return field.minimum !== undefined || field.maximum !== undefined ? `${name} ${range(field.minimum, field.maximum)}` : name;
    }
    case "boolean":
      return "y/n";
    case "enum":
      return "number";
    case "multi": {
      const limits = field.minItems !== undefined || field.maxItems !== undefined ? `, ${range(field.minItems, field.maxItems)} choices` : "";
      return `numbers${limits}`;
    }
  }
}

/**
 * Reads the typed text for `field`: blank leaves the field out; a number or a boolean must
 * parse; a choice is its number or its value or label (any case); several choices are numbers
 * (or values) separated by commas or spaces.
 */
export function readAnswer(field: FormField, text: string): ReadResult {
  const t = text.trim();
  if (t === "") return { value: undefined };
  switch (field.kind) {
    case "string":
      // Text is sent as typed: only an entirely blank answer means "left out".
      return { value: text };
    case "number": {
      const n = Number(t);
      return Number.isFinite(n) ? { value: n } : { error: `${field.label} must be a number` };
    }
    case "boolean": {
      const lower = t.toLowerCase();
      if (["y", "yes", "true"].includes(lower)) return { value: true };
      if (["n", "no", "false"].includes(lower)) return { value: false };
      return { error: `${field.label}: answer y or n` };
    }
    case "enum": {
      const option = pickOption(field.options, t);
      return option ? { value: option.value } : { error: `${field.label}: choose a number from 1 to ${field.options.length}` };
    }
    case "multi": {
      const picked: string[] = [];
      for (const word of t.split(/[\s,]+/).filter(Boolean)) {
        const option = pickOption(field.options, word);
        if (!option) return { error: `${field.label}: "${word}" is not one of the choices (1 to ${field.options.length})` };
        if (!picked.includes(option.value)) picked.push(option.value);
      }
      return { value: picked };
    }
  }
}

/**
 * A value as the user sees it: in the summary (`as: "label"`: choices by label, booleans yes/no)
 * or in the editor (`as: "number"`: choices by number, booleans y/n), so pre-filled text reads back as the same value.
 */
export function showValue(field: FormField, value: ElicitValue, as: "label" | "number"): string {
  if (field.kind === "boolean") return as === "label" ? (value ? "yes" : "no") : value ? "y" : "n";
  if (field.kind === "enum" || field.kind === "multi") {
    const values = Array.isArray(value) ? value : [String(value)];
    return values
      .map((v) => {
        const i = field.options.findIndex((o) => o.value === v);
        if (i < 0) return v;
        return as === "number" ? String(i + 1) : field.options[i]!.label;
      })
      .join(", ");
  }
  return String(value);
}

function pickOption(options: EnumOption[], word: string): EnumOption | undefined {
  if (/^\d+$/.test(word)) return options[Number(word) - 1];
  const lower = word.toLowerCase();
  return options.find((o) => o.value.toLowerCase() === lower) ?? options.find((o) => o.label.toLowerCase() === lower);
}

function optionText(o: EnumOption): string {
  return o.label === o.value ? o.label : `${o.label} (${o.value})`;
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${min}–${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

const FORMAT_HINTS = { email: "email address", uri: "URI", date: "date YYYY-MM-DD", "date-time": "date and time, ISO 8601" } as const;
