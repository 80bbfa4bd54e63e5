/**
 * `agent mcp skills <server>` and `agent mcp skill <server> <name> [args…]`: a server's skills
 * (SEP-2640) without a model. `skills` prints what `skills/list` gave (no file is read);
 * `skill` loads one exactly as the Skill tool would: SKILL.md read, its size, digest and front
 * matter checked against the manifest, then printed as the model would see it. `<name>` is the
 * front matter name, the skill's path, its `SKILL.md` URI or its `mcp__<server>__<name>`;
 * `<name>/<path>` loads one of its other files, verified the same way.
 */
import type { McpRegistry, ServerSnapshot } from "../../../mcp/registry/registry.ts";
import { loadServedFile, servedSkills, skillRoot } from "../../../agent/skills/served.ts";
import { promptCommandPrefix } from "../../../agent/mcp/names.ts";
import { SkillLoadError, type Skill } from "../../../agent/skills/skill.ts";
import { skillEntry, type McpSkillEntry } from "../../../mcp/protocol/skills.ts";
import { errorMessage, isObject } from "../../../shared/values.ts";

/** The text to print, or the one-line reason the command failed. */
export async function skillsCommand(registry: McpRegistry, state: ServerSnapshot, load?: { name: string; args: string }): Promise<string | { error: string }> {
  if (!state.skills) return { error: `MCP server "${state.name}" does not declare the skills extension (io.modelcontextprotocol/skills)` };
  const read = (server: string) => (uri: string) => registry.readResource(server, uri) as Promise<{ contents?: unknown[] }>;
  const skills = servedSkills([state], read);
  if (!load) return skills.length ? skills.map((s) => `${s.name}  ${s.description}`.trimEnd()).join("\n") : `MCP server "${state.name}" lists no skills.`;
  const { skill, path } = pick(skills, state.name, load.name) ?? {};
  // A skill a partial listing left out is still loadable by its URI (SEP-2640, skills/get).
  if (!skill && load.name.includes("://")) return loadUnlisted(registry, state, load.name, load.args);
  if (skill?.origin.kind !== "mcp") {
    return { error: `MCP server "${state.name}" has no skill "${load.name}" (skills: ${skills.map((s) => s.name).join(", ") || "none"})` };
  }
  try {
    if (path === undefined) return (await skill.load(load.args)).text;
    const uri = skill.origin.uri;
    const entry = state.skills.find((e) => e.uri === uri)!;
    return await loadServedFile(state.name, entry, path, read(state.name));
  } catch (err) {
    if (err instanceof SkillLoadError) return { error: err.message };
    throw err;
  }
}

/** `skills/get` for `uri`, then the same verified load as a listed skill. */
async function loadUnlisted(registry: McpRegistry, state: ServerSnapshot, uri: string, args: string): Promise<string | { error: string }> {
  let entry: McpSkillEntry | undefined;
  try {
    const got = await registry.getSkill(state.name, uri);
    entry = skillEntry(isObject(got) ? got.skill : undefined);
  } catch (err) {
    return { error: `skills/get ${uri}: ${errorMessage(err)}` };
  }
  if (!entry) return { error: `skills/get ${uri}: the result has no skill entry` };
  const [skill] = servedSkills([{ ...state, skills: [entry] }], () => (u) => registry.readResource(state.name, u) as Promise<{ contents?: unknown[] }>);
  try {
    return (await skill!.load(args)).text;
  } catch (err) {
    if (err instanceof SkillLoadError) return { error: err.message };
    throw err;
  }
}

/** The skill `name` names, and the file path after it when it names one of its files. */
function pick(skills: Skill[], server: string, name: string): { skill?: Skill; path?: string } {
  const prefix = promptCommandPrefix(server);
  const full = name.startsWith(prefix) ? name : `${prefix}${name}`;
  const exact = skills.find((s) => s.name === full || (s.origin.kind === "mcp" && (s.origin.uri === name || skillRoot(s.origin.uri) === name)));
  if (exact) return { skill: exact };
  const owner = skills.filter((s) => full.startsWith(`${s.name}/`)).sort((a, b) => b.name.length - a.name.length)[0];
  return owner ? { skill: owner, path: full.slice(owner.name.length + 1) } : {};
}
