/**
 * The shapes of the skills layer (Claude Code skills.md; SEP-2640 for served skills): one
 * `Skill` per invocable name, whatever its origin, and what loading one gives.
 */

/** Where a skill came from: the user's folder, the project's, or an MCP server (SEP-2640). */
export type SkillOrigin = { kind: "user"; dir: string } | { kind: "project"; dir: string } | { kind: "mcp"; server: string; uri: string };

/** What loading a skill gives: the text the model reads, and the tools it may run without asking. */
export interface LoadedSkill {
  /** `Base directory for this skill: <dir>\n\n<rendered body>` (or the served form, marked untrusted). */
  text: string;
  /** `allowed-tools` of a local skill that may grant them; always empty for a served skill. */
  allowedTools: string[];
}

export interface Skill {
  /** The command name: the directory's name (local), `<server>:<name>` (served). */
  name: string;
  /** The front matter's `name` when it differs from the command name (listed as `dir (name)`). */
  displayName?: string;
  description: string;
  whenToUse?: string;
  origin: SkillOrigin;
  /** `disable-model-invocation: true`: left out of the listing, refused to the Skill tool. */
  disableModelInvocation: boolean;
  /** `user-invocable: false`: listed for the model, refused as `/name`. */
  userInvocable: boolean;
  argumentHint?: string;
  /** `allowed-tools`, as written (rule strings such as `Bash(git:*)`). */
  allowedTools: string[];
  /**
   * Reads (a served skill: fetches and verifies) and renders the body with `args`.
   * @throws SkillLoadError with a one-line reason fit for the model and stderr.
   */
  load(args: string): Promise<LoadedSkill>;
}

/** A skill that could not be loaded: unreadable, or (served) failing verification. */
export class SkillLoadError extends Error {}
