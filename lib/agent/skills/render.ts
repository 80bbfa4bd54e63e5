/**
 * A skill body as the model reads it (Claude Code skills.md, "Pass arguments to skills"; checked
 * against Claude Code 2.1.328): `$ARGUMENTS` is the raw argument text, `$0`, `$1`… the
 * shell-split words counted from 0, `${CLAUDE_SKILL_DIR}` the skill's folder; a body that never
 * mentions its arguments gets them appended as `ARGUMENTS: <args>`. Plain text substitution:
 * nothing in the arguments is evaluated or expanded again.
 */
import { shellWords } from "../input/shell-words.ts";

/** The body with its placeholders filled. */
export function renderBody(body: string, args: string, dir: string): string {
  const words = shellWords(args);
  const mentions = /\$ARGUMENTS|\$\d/.test(body);
  const filled = body
    .replaceAll("${CLAUDE_SKILL_DIR}", dir)
    .replace(/\$ARGUMENTS|\$(\d+)/g, (_, n?: string) => (n === undefined ? args : (words[Number(n)] ?? "")));
  return args && !mentions ? `${filled}\n\nARGUMENTS: ${args}` : filled;
}

/** What a Skill call or `/name` puts before the model: the folder, so it can Read the supporting files. */
export function skillText(dir: string, rendered: string): string {
  return `Base directory for this skill: ${dir}\n\n${rendered}`;
}
