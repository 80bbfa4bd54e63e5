/**
 * Whether a skill with `allowed-tools` may load without a person to ask (Claude Code `-p`,
 * checked against 2.1.328): only with a `Skill(<name>)` (or bare `Skill`) allow rule; otherwise
 * the Skill call's error result says how to allow it, in Claude Code's words. The rules are
 * --allowedTools today; settings files' `permissions.allow` join them once settings land.
 */
import type { Skill } from "./types.ts";

/** True when one of `rules` allows running `skill` through the Skill tool. */
export function skillAllowed(skill: Skill, rules: readonly string[]): boolean {
  return rules.some((r) => r === "Skill" || r === "Skill(*)" || r === `Skill(${skill.name})`);
}

/** The gate for a headless run: undefined (load it) or the refusal the model reads. */
export function skillGate(skill: Skill, rules: readonly string[]): string | undefined {
  if (skillAllowed(skill, rules)) return undefined;
  return `Execute skill: ${skill.name}. The user can add the allow rule Skill(${skill.name}) to .claude/settings.local.json to let it run without asking.`;
}
