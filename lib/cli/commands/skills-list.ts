/**
 * `/skills`: every skill of the run with where it came from (the user's folder, the project's,
 * or an MCP server and the skill's URI), and who may start it (Claude Code skills.md,
 * `disable-model-invocation` and `user-invocable`).
 */
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import type { Skill } from "../../agent/skills/skill.ts";

const NONE = "No skills. Add one as .claude/skills/<name>/SKILL.md (this project) or ~/.claude/skills/<name>/SKILL.md (all your projects).";

function origin(skill: Skill): string {
  const o = skill.origin;
  return o.kind === "mcp" ? `MCP server "${o.server}", ${o.uri}` : `${o.kind}, ${o.dir}`;
}

function who(skill: Skill): string {
  if (skill.disableModelInvocation) return " · only you (/name)";
  if (!skill.userInvocable) return " · only the model";
  return "";
}

/** The /skills text, ending with a newline. */
export function skillsList(runtime: AgentRuntime): string {
  const skills = runtime.skills?.all() ?? [];
  const waiting = runtime.connecting.size ? `MCP servers still connecting (their skills show once they are up): ${[...runtime.connecting].join(", ")}\n` : "";
  if (!skills.length) return `${waiting}${NONE}\n`;
  const lines = skills.map((s) => `  /${s.name}${s.argumentHint ? ` ${s.argumentHint}` : ""}  ${s.description}\n    ${origin(s)}${who(s)}`);
  return `${waiting}Skills:\n${lines.join("\n")}\n`;
}
