/**
 * The `Skill` tool (Claude Code's, input `{skill, args?}`; results checked against Claude Code
 * 2.1.328): the tool_result says `Launching skill: <name>` and the skill's text follows in the
 * same user message; an unknown name, a skill with `disable-model-invocation`, a refused
 * permission or a failed load is an error result naming what went wrong.
 */
import type { Tool, ToolContext, ToolOutput } from "../../tools/tool.ts";
import { SkillLoadError, type LoadedSkill, type Skill } from "./skill.ts";

export const SKILL_TOOL_NAME = "Skill";

export interface SkillToolOptions {
  find(name: string): Skill | undefined;
  /** Asked before a skill loads: undefined lets it, a line is the refusal the model reads. */
  gate?(skill: Skill, ctx: ToolContext): Promise<string | undefined> | string | undefined;
  /** Told after a skill loaded (its allowed-tools grants). */
  onLoaded?(skill: Skill, loaded: LoadedSkill): void | Promise<void>;
}

const useError = (text: string): ToolOutput => ({ isError: true, content: `<tool_use_error>${text}</tool_use_error>` });

/** The tool, reading the catalog at each call (a server's skills may change). */
export function skillTool(opts: SkillToolOptions): Tool {
  return {
    name: SKILL_TOOL_NAME,
    description:
      "Loads a skill: instructions the user, the project or a connected MCP server packaged for a kind of task. " +
      "The skills are listed by name and description in a system message. When a listed skill covers the task at hand, call this first and follow what it loads. " +
      "A user who types /<name> is asking for that skill.\n\n" +
      "- `skill`: a name exactly as listed, without the slash.\n- `args`: optional arguments for the skill.",
    inputSchema: {
      type: "object",
      properties: {
        skill: { type: "string", description: "The name of a skill from the listing" },
        args: { type: "string", description: "Optional arguments for the skill" },
      },
      required: ["skill"],
      additionalProperties: false,
    },
    // Loading text changes nothing; a skill that grants tools is gated by `gate`.
    asksPermission: false,
    summary: (input) => (typeof input.skill === "string" ? input.skill : undefined),
    async run(input, ctx) {
      const name = typeof input.skill === "string" ? input.skill.trim().replace(/^\//, "") : "";
      if (!name) return useError("skill must be a non-empty string");
      const skill = opts.find(name);
      if (!skill) return useError(`Unknown skill: ${name}`);
      if (skill.disableModelInvocation) {
        return useError(`Skill ${name} cannot be used with Skill tool due to disable-model-invocation. Ask the user to run /${name} themselves.`);
      }
      const refused = await opts.gate?.(skill, ctx);
      if (refused) return { isError: true, content: refused };
      let loaded: LoadedSkill;
      try {
        loaded = await skill.load(typeof input.args === "string" ? input.args : "");
      } catch (err) {
        if (err instanceof SkillLoadError) return useError(err.message);
        throw err;
      }
      await opts.onLoaded?.(skill, loaded);
      return { content: `Launching skill: ${name}`, followUp: [{ type: "text", text: loaded.text }] };
    },
  };
}
