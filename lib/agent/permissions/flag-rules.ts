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

export interface FlagRuleNames {
  /** --allowedTools entries: only scoped ones are checked (a bare name may be a tool that comes later). */
  allowed: readonly string[];
  /** --disallowedTools entries. */
  disallowed: readonly string[];
  /** `--tools` names, when given (the built-in tools offered). */
  toolsFlag?: Iterable<string>;
  /** Every tool name the run has. */
  tools: readonly string[];
  /** Every configured server's rule name (`mcp__<server>`). */
  servers: readonly string[];
  matches(toolName: string, rule: string): boolean;
}

/**
 * One line for each flag rule that names nothing the run has: a `--tools` name, a scoped rule
 * (`Bash(rm:*)`, the rule engine's) whose tool is unknown, or a bare --disallowedTools entry that
 * matches no tool or server.
 * Skill and MCP names are left alone: skills and servers may come later.
 */
export function flagRuleWarnings(f: FlagRuleNames): string[] {
  const lines: string[] = [];
  const unknownTool = (flag: string, rule: string) => {
    const tool = ruleToolName(rule);
    if (!f.tools.includes(tool) && tool !== "Skill" && !tool.startsWith("mcp__")) lines.push(`${flag}: no tool named "${tool}" for the rule "${rule}"`);
  };
  for (const name of f.toolsFlag ?? []) {
    if (!f.tools.includes(name) && name !== "Skill" && !name.startsWith("mcp__")) lines.push(`--tools: no built-in tool named "${name}"`);
  }
  for (const rule of f.allowed) if (isScopedRule(rule)) unknownTool("--allowedTools", rule);
  for (const rule of f.disallowed) {
    if (isScopedRule(rule)) unknownTool("--disallowedTools", rule);
    else if (!f.tools.some((n) => f.matches(n, rule)) && !f.servers.includes(rule)) lines.push(`--disallowedTools: no tool or MCP server named "${rule}"`);
  }
  return lines;
}
