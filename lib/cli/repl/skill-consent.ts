/**
 * The session's question before the model loads a skill that has `allowed-tools` (Claude Code
 * skills.md, "Restrict tool access": such a skill needs permission, and once allowed its tools
 * run without asking until the turn ends). `--allowedTools Skill(<name>)`, a settings allow rule
 * and bypassPermissions answer it beforehand; dontAsk refuses it without a question.
 */
import type { Skill } from "../../agent/skills/skill.ts";
import { skillAllowed, type SkillSettings } from "../../agent/policy/skill-permission.ts";
import { parseAnswer } from "./permission.ts";
import type { Style } from "../ui/style.ts";
import type { PermissionMode } from "../../agent/permissions/modes.ts";

/** `ask` shows a question and resolves with the typed line, or null when the user interrupted. */
export function skillConsent(
  ask: (question: string) => Promise<string | null>,
  style: Style,
  allowed: readonly string[],
  mode: PermissionMode,
  settings?: SkillSettings,
) {
  return async (skill: Skill): Promise<string | undefined> => {
    if (mode === "bypassPermissions" || skillAllowed(skill, allowed, settings)) return undefined;
    if (mode === "dontAsk") return `The skill ${skill.name} needs permission, and --permission-mode dontAsk asks nothing.`;
    const question = `Allow skill ${skill.name}? It lets ${skill.allowedTools.join(", ")} run without asking until this turn ends. [y]es / [n]o `;
    for (;;) {
      const line = await ask(style.yellow(question));
      const parsed = line === null ? { answer: "no" as const } : parseAnswer(line);
      if (!parsed) continue;
      return parsed.answer === "no" ? `The user refused to load skill ${skill.name}.` : undefined;
    }
  };
}
