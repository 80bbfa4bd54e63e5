/**
 * A skill run from the prompt as `/<name> args` (Claude Code skills.md; the message checked
 * against Claude Code 2.1.328): the user message holds a `<command-message>` block naming it,
 * then the skill's text. No permission is asked: the user chose it. A skill with
 * `user-invocable: false` is refused before any model call.
 */
import type { TextBlock } from "../messages.ts";
import { InputError } from "../input/input-shapes.ts";
import { SkillLoadError, type LoadedSkill, type Skill } from "./skill.ts";

/**
 * The user message's blocks for `/name args`.
 * @throws InputError for a skill users may not run, or one that failed to load.
 */
export async function runSkillCommand(skill: Skill, args: string, onRun?: (skill: Skill, loaded: LoadedSkill) => void | Promise<void>): Promise<TextBlock[]> {
  if (!skill.userInvocable) {
    throw new InputError(`/${skill.name}: this skill can only be invoked by Claude, not directly by users (user-invocable: false)`);
  }
  let loaded: LoadedSkill;
  try {
    loaded = await skill.load(args);
  } catch (err) {
    if (err instanceof SkillLoadError) throw new InputError(`/${skill.name}: ${err.message}`);
    throw err;
  }
  await onRun?.(skill, loaded);
  const head = `<command-message>${skill.name}</command-message>\n<command-name>/${skill.name}</command-name>\n<command-args>${args}</command-args>\n`;
  return [
    { type: "text", text: head },
    { type: "text", text: loaded.text },
  ];
}
