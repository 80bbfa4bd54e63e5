/**
 * The skills listing the model reads, in Claude Code's words and limits (checked against Claude
 * Code 2.1.328): `The following skills are available for use with the Skill tool:`, a blank
 * line, then `- <name>: <description>[ - <when_to_use>]` a line, each description capped at
 * 1,536 characters (`…` marks a cut). The whole listing has a budget: SLASH_COMMAND_TOOL_CHAR_BUDGET
 * characters, else 1 % of the model's context window at 4 characters a token (8,000 for an
 * unknown model). Over budget, every entry shrinks to `- <name>` and entries get their
 * description back, in listing order, while the budget allows. Skills with
 * `disable-model-invocation` are left out.
 */
import type { Skill } from "./skill.ts";

export const LISTING_HEADER = "The following skills are available for use with the Skill tool:";
export const MAX_DESCRIPTION_CHARS = 1536;
const DEFAULT_WINDOW_TOKENS = 200_000;
const CHARS_PER_TOKEN = 4;
const BUDGET_SHARE = 0.01;

/** The budget in characters for a model whose window is `windowTokens` (undefined: unknown model). */
export function listingBudget(windowTokens: number | undefined, env: Record<string, string | undefined> = process.env): number {
  const fixed = Number(env.SLASH_COMMAND_TOOL_CHAR_BUDGET);
  if (Number.isInteger(fixed) && fixed > 0) return fixed;
  return Math.max(1, Math.floor((windowTokens ?? DEFAULT_WINDOW_TOKENS) * CHARS_PER_TOKEN * BUDGET_SHARE));
}

/** `name` or `name (front matter name)`. */
export function listedName(skill: Skill): string {
  return skill.displayName ? `${skill.name} (${skill.displayName})` : skill.name;
}

function description(skill: Skill): string {
  const full = skill.whenToUse ? `${skill.description} - ${skill.whenToUse}` : skill.description;
  return full.length > MAX_DESCRIPTION_CHARS ? `${full.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : full;
}

/**
 * The listing for `skills` within `budget` characters, or undefined when none is listed.
 * `overBudget` is told once when descriptions had to go.
 */
export function skillListing(skills: readonly Skill[], budget: number, overBudget?: (line: string) => void): string | undefined {
  const listed = skills.filter((s) => !s.disableModelInvocation);
  if (!listed.length) return undefined;
  const entries = listed.map((s) => ({ short: `- ${listedName(s)}`, full: `- ${listedName(s)}: ${description(s)}` }));
  const total = entries.reduce((n, e) => n + e.full.length, 0) + entries.length - 1;
  let lines = entries.map((e) => e.full);
  if (total > budget) {
    overBudget?.(`skills: the listing of ${listed.length} skills takes ${total} characters, over its budget of ${budget}: some are listed by name only`);
    let left = budget - (entries.reduce((n, e) => n + e.short.length, 0) + entries.length - 1);
    lines = entries.map((e) => {
      const extra = e.full.length - e.short.length;
      if (extra > left) return e.short;
      left -= extra;
      return e.full;
    });
  }
  return `${LISTING_HEADER}\n\n${lines.join("\n")}`;
}
