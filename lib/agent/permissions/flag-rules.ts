/**
 * Permission rules given as flags (`--allowedTools`, `--disallowedTools`, and the Agent SDK's
 * `allowedTools`/`disallowedTools`, which reach us as the same flags): one list split at commas and
 * spaces outside parentheses, so that `Bash(npm test:*)` stays one rule. A scoped rule (one with a
 * specifier) goes through the settings rule engine like a rule of a settings file; bare names keep
 * naming tools as before (runtime.ts), which the engine's own name matching agrees with.
 */

/** The rules of one flag value: split at commas and whitespace outside `(…)`, empties dropped. */
export function splitRuleList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let word = "";
  for (const c of value) {
    if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    if (depth === 0 && (c === "," || /\s/.test(c))) {
      if (word) out.push(word);
      word = "";
    } else word += c;
  }
  if (word) out.push(word);
  return out;
}

/** True when `rule` has a specifier (`Bash(rm:*)`), which only the rule engine understands. */
export const isScopedRule = (rule: string): boolean => rule.includes("(");

/** The flags' scoped rules, for the rule engine; empty when every entry is a bare name. */
export interface FlagRules {
  allow: string[];
  deny: string[];
}

export function scopedFlagRules(allowed: readonly string[], disallowed: readonly string[]): FlagRules {
  return { allow: allowed.filter(isScopedRule), deny: disallowed.filter(isScopedRule) };
}

/** The tool name a flag rule speaks of (`Bash` of `Bash(rm:*)`). */
export const ruleToolName = (rule: string): string => rule.split("(")[0]!.trim();
