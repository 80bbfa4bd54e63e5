/**
 * A SKILL.md split into its YAML front matter and its Markdown body, as Claude Code reads it
 * (Claude Code skills.md, "Frontmatter reference"; checked against Claude Code 2.1.328):
 * - no front matter block, or one without a closing `---`: the whole file is the body;
 * - YAML that does not parse is tried once more with every top-level value quoted (what makes
 *   `description: [unclosed` read as text); when that fails too, the metadata is empty, the
 *   body is still served, and the parse error is returned for `--debug`;
 * - either way `disable-model-invocation: true` written on its own line is kept (keepSafetyFlag).
 * The YAML is parsed by the `yaml` package (YAML 1.2, core schema).
 */
import { parse } from "yaml";

export interface SkillFile {
  /** The front matter as parsed: an object, or `{}` when absent, malformed or not a mapping. */
  meta: Record<string, unknown>;
  /** Everything after the closing `---` (or the whole file). */
  body: string;
  /** Whether a front matter block (both fences) was found. */
  fenced: boolean;
  /** Why the front matter was ignored ("YAML Parse error: …"), when it was. */
  error?: string;
  /** True when it parsed only with its values quoted (a served skill's must parse as written). */
  repaired?: boolean;
}

const FENCED = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/** Splits and parses one SKILL.md text. Never throws. */
export function parseSkillFile(raw: string): SkillFile {
  const text = raw.replace(/^\uFEFF/, "");
  const front = FENCED.exec(text);
  if (!front) return { meta: {}, body: text, fenced: false };
  const body = text.slice(front[0].length);
  const yaml = front[1] ?? "";
  try {
    return { meta: asMapping(parse(yaml)), body, fenced: true };
  } catch (first) {
    try {
      const meta = keepSafetyFlag(asMapping(parse(quoteValues(yaml))), yaml);
      return { meta, body, fenced: true, repaired: true, error: `YAML Parse error: ${firstLine(first)}` };
    } catch {
      return { meta: keepSafetyFlag({}, yaml), body, fenced: true, error: `YAML Parse error: ${firstLine(first)}` };
    }
  }
}

/**
 * A front matter that did not parse as written still says `disable-model-invocation: true` when
 * its line says so: a safety flag is never lost to a typo elsewhere (quoting made it the string
 * "true"; a failed parse dropped it), so the model is never offered that skill.
 */
function keepSafetyFlag(meta: Record<string, unknown>, yaml: string): Record<string, unknown> {
  const flag = /^disable-model-invocation:[ \t]*["']?(true|yes|on)["']?[ \t]*(?:#.*)?$/im.test(yaml);
  return flag ? { ...meta, "disable-model-invocation": true } : meta;
}

/** `key: value` lines at the top level with their value single-quoted, when it is not already. */
function quoteValues(yaml: string): string {
  return yaml.replace(/^([\w-]+):[ \t]+(?!["'|>])(.+?)[ \t]*$/gm, (_, key: string, value: string) => `${key}: '${value.replaceAll("'", "''")}'`);
}

function asMapping(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/**
 * The description Claude Code falls back to when the front matter gives none: the body's first
 * non-empty line (for a file whose fences do not close, that is the opening `---`).
 */
export function fallbackDescription(body: string): string {
  return (
    body
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== "") ?? ""
  );
}
