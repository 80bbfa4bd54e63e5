/**
 * Where a URI being typed stands in an RFC 6570 URI template (the `uriTemplate` of MCP 2025-11-25
 * server/resources#resource-templates), for completion: still inside a literal part, or inside a
 * variable's value (what `completion/complete` completes, server/utilities/completion).
 * Pure functions. Expressions with several variables (`{x,y}`) count as their first variable;
 * the value modifiers (`:3`, `*`) are ignored.
 */

/** A literal run of the template, or one expression: its variable and how its value is encoded. */
type Part = { literal: string; raw: string } | { variable: string; reserved: boolean; raw: string };

/** What an operator puts before the value (RFC 6570 §3.2.1, table of "first" strings). */
const LEAD: Record<string, string> = { "+": "", "#": "#", ".": ".", "/": "/", ";": ";", "?": "?", "&": "&" };

/** The template cut into literals and expressions; an operator's lead (`/`, `?name=`) joins the literal before it. */
function parts(template: string): Part[] {
  const out: Part[] = [];
  // `raw` is the template as written: an operator's lead is matched as literal text but written in its expression.
  const literal = (text: string, raw = text) => {
    const last = out.at(-1);
    if (last && "literal" in last) {
      last.literal += text;
      last.raw += raw;
    } else if (text) out.push({ literal: text, raw });
  };
  const expression = /\{([^{}]*)\}/g;
  let at = 0;
  for (let m = expression.exec(template); m; m = expression.exec(template)) {
    literal(template.slice(at, m.index));
    at = m.index + m[0].length;
    const body = m[1]!;
    const op = body[0] && body[0] in LEAD ? body[0] : "";
    const variable = body
      .slice(op.length)
      .split(",")[0]!
      .replace(/(:\d+|\*)$/, "");
    literal(LEAD[op] ?? "", "");
    if (op && "?&;".includes(op)) literal(`${variable}=`, "");
    out.push({ variable, reserved: op === "+" || op === "#", raw: m[0] });
  }
  literal(template.slice(at));
  return out;
}

/** The text of `template` before its first expression (what can be typed without choosing a value). */
export function literalPrefix(template: string): string {
  const open = template.indexOf("{");
  return open < 0 ? template : template.slice(0, open);
}

/** True when `template` has at least one expression: a template, not a plain URI. */
export function isTemplate(template: string): boolean {
  return /\{[^{}]*\}/.test(template);
}

/** `typed` still inside a literal part: `text` is the typed text with that literal finished. */
export interface LiteralPosition {
  kind: "literal";
  /** What to insert: the typed text up to this literal, then the whole literal. */
  text: string;
  /** How the candidate reads: `text`, then the rest of the template as written. */
  shown: string;
  /** No expression follows: `text` is a whole URI. */
  final: boolean;
}

/** `typed` inside a variable's value (possibly empty): the arguments of `completion/complete`. */
export interface VariablePosition {
  kind: "variable";
  variable: string;
  /** What was typed of the value. */
  value: string;
  /** Values of the variables before it (`context.arguments`). */
  context: Record<string, string>;
  /** `value` completed to `choice`: what to insert and how it reads. */
  fill(choice: string): { text: string; shown: string; final: boolean };
}

/**
 * Where `typed` stands in `template`; undefined when it does not fit the template, or already is
 * a whole URI of it. A value runs until the first character of the literal after it.
 */
export function templatePosition(template: string, typed: string): LiteralPosition | VariablePosition | undefined {
  const list = parts(template);
  const context: Record<string, string> = {};
  let pos = 0;
  for (let i = 0; i < list.length; i++) {
    const part = list[i]!;
    const rest = typed.slice(pos);
    if ("literal" in part) {
      const lit = part.literal;
      if (rest.length < lit.length || (rest.length === lit.length && i === list.length - 1)) {
        if (!lit.startsWith(rest) || rest === lit) return undefined;
        return { kind: "literal", text: typed.slice(0, pos) + lit, shown: typed.slice(0, pos) + rawFrom(list, i), final: i === list.length - 1 };
      }
      if (!rest.startsWith(lit)) return undefined;
      pos += lit.length;
      continue;
    }
    const next = list[i + 1] as { literal: string; raw: string } | undefined;
    const end = next ? rest.indexOf(next.literal[0]!) : -1;
    if (end >= 0) {
      context[part.variable] = rest.slice(0, end);
      pos += end;
      continue;
    }
    const head = typed.slice(0, pos);
    const tail = next?.literal ?? "";
    const final = i + 2 >= list.length;
    return {
      kind: "variable",
      variable: part.variable,
      value: rest,
      context: { ...context },
      fill: (choice) => {
        const value = part.reserved ? encodeURI(choice) : encodeURIComponent(choice);
        return { text: head + value + tail, shown: head + value + rawFrom(list, i + 1), final };
      },
    };
  }
  return undefined;
}

/** The template as written from part `i` on. */
function rawFrom(list: Part[], i: number): string {
  return list
    .slice(i)
    .map((p) => p.raw)
    .join("");
}
