/**
 * Whether a skill with `allowed-tools` may load without a person to ask (Claude Code `-p`,
 * checked against 2.1.328): only with a `Skill(<name>)` (or bare `Skill`) allow rule; otherwise
 * the Skill call's error result says how to allow it, in Claude Code's words. The rules are
 * --allowedTools and the settings files' `permissions.allow` (permissions/rules.ts decides those).
 */
import type { Skill } from "../skills/skill.ts";

/** The run's settings, as far as a skill's permission goes (policy/turn-hooks.ts SettingsHooks). */
export interface SkillSettings {
  allowsSkill(name: string): boolean;
}

/** True when one of `rules` (--allowedTools) or a settings allow rule allows running `skill` through the Skill tool. */
export function skillAllowed(skill: Skill, rules: readonly string[], settings?: SkillSettings): boolean {
  return rules.some((r) => r === "Skill" || r === "Skill(*)" || r === `Skill(${skill.name})`) || settings?.allowsSkill(skill.name) === true;
}

/** The gate for a headless run: undefined (load it) or the refusal the model reads. */
export function skillGate(skill: Skill, rules: readonly string[], settings?: SkillSettings): string | undefined {
  if (skillAllowed(skill, rules, settings)) return undefined;
  return `Execute skill: ${skill.name}. The user can add the allow rule Skill(${skill.name}) to .claude/settings.local.json to let it run without asking.`;
}
