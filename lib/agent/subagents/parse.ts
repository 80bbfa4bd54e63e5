/**
 * One agent definition from what a file or a JSON entry says: Claude Code's keys (name,
 * description, prompt or body, tools, disallowedTools, model, permissionMode, mcpServers, skills,
 * maxTurns), unknown keys ignored. A definition without a description is skipped, as Claude Code
 * skips it; a name that could not be typed safely (control characters, `/`, `:`, `..`) is refused.
 * Each problem is one line naming the agent and where it came from.
 */
import type { AgentDefinition, AgentSource, InlineServer } from "./types.ts";

/** What parsing gave: a definition, or why there is none (`quiet`: only --debug shows it). */
export type Parsed = { definition: AgentDefinition; warnings: string[] } | { skipped: string; quiet?: boolean; warnings: string[] };

/** A name a model can type and a terminal can print: letters, digits, `_`, `-`, `.`; never `..`. */
export function validAgentName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name) && !name.includes("..");
}

/** Tools Claude Code knows that an agent file may name; anything else is one warning line. */
const KNOWN_TOOLS = new Set([
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Glob",
  "Grep",
  "Agent",
  "Task",
  "Skill",
  "WebFetch",
  "WebSearch",
  "NotebookEdit",
  "TodoWrite",
  "ToolSearch",
  "Monitor",
  "TaskStop",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskUpdate",
  "ExitPlanMode",
  "EnterPlanMode",
  "AskUserQuestion",
  "SendMessage",
  "LS",
  "MultiEdit",
  "NotebookRead",
  "BashOutput",
  "KillShell",
]);

/**
 * A definition from `meta` (front matter or a JSON object) and `body` (the prompt when `meta` has
 * none). `fallbackName` is used when `meta.name` is absent (a file's base name, a JSON key).
 */
export function parseDefinition(meta: Record<string, unknown>, body: string, fallbackName: string, source: AgentSource, where: string): Parsed {
  const warnings: string[] = [];
  const name = typeof meta.name === "string" && meta.name.trim() ? meta.name.trim() : fallbackName;
  if (!validAgentName(name))
    return { skipped: `${where}: agent name ${JSON.stringify(printable(name))} is not allowed (letters, digits, _ - . only); skipped`, warnings };
  const description = typeof meta.description === "string" ? meta.description.trim() : "";
  if (!description) return { skipped: `${where}: agent "${name}" has no description; skipped`, quiet: true, warnings };
  const prompt = (typeof meta.prompt === "string" ? meta.prompt : body).trim();
  const tools = nameList(meta.tools);
  const disallowedTools = nameList(meta.disallowedTools);
  for (const t of [...(tools ?? []), ...(disallowedTools ?? [])]) {
    const base = t.replace(/\(.*\)$/, "");
    if (!base.startsWith("mcp__") && !KNOWN_TOOLS.has(base)) warnings.push(`${where}: agent "${name}" names an unknown tool "${printable(t)}"; it is left out`);
  }
  const def: AgentDefinition = { name, description, prompt, source, path: where };
  if (tools) def.tools = tools;
  if (disallowedTools) def.disallowedTools = disallowedTools;
  if (typeof meta.model === "string" && meta.model.trim()) def.model = meta.model.trim();
  if (meta.permissionMode !== undefined) {
    const mode = typeof meta.permissionMode === "string" ? meta.permissionMode.trim() : "";
    if (["default", "acceptEdits", "bypassPermissions", "dontAsk", "plan"].includes(mode)) def.permissionMode = mode;
    else
      warnings.push(
        `${where}: agent "${name}": permissionMode must be default, acceptEdits, bypassPermissions, dontAsk or plan (got ${JSON.stringify(meta.permissionMode)}); ignored`,
      );
  }
  const skills = nameList(meta.skills);
  if (skills) def.skills = skills;
  if (meta.maxTurns !== undefined) {
    const n = Number(meta.maxTurns);
    if (Number.isInteger(n) && n > 0) def.maxTurns = n;
    else warnings.push(`${where}: agent "${name}": maxTurns must be a whole number of at least 1 (got ${JSON.stringify(meta.maxTurns)}); ignored`);
  }
  if (meta.mcpServers !== undefined) {
    const servers = mcpServers(meta.mcpServers);
    if (servers) def.mcpServers = servers;
    else warnings.push(`${where}: agent "${name}": mcpServers must be a list of server names or {name: config} entries; ignored`);
  }
  return { definition: def, warnings };
}

/** A comma list or a YAML/JSON list of names; undefined when absent or not a list of strings. */
function nameList(value: unknown): string[] | undefined {
  if (typeof value === "string") {
    return value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  }
  if (Array.isArray(value))
    return value
      .filter((v): v is string => typeof v === "string")
      .map((s) => s.trim())
      .filter(Boolean);
  return undefined;
}

/** `mcpServers` as Claude Code reads it: a list of names or one-key maps, or a plain map of name to config. */
function mcpServers(value: unknown): { names: string[]; inline: InlineServer[] } | undefined {
  const out = { names: [] as string[], inline: [] as InlineServer[] };
  const addMap = (map: Record<string, unknown>) => {
    for (const [name, config] of Object.entries(map)) {
      if (config && typeof config === "object" && !Array.isArray(config)) out.inline.push({ name, config: config as Record<string, unknown> });
      else return false;
    }
    return true;
  };
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === "string" && item.trim()) out.names.push(item.trim());
      else if (item && typeof item === "object" && !Array.isArray(item)) {
        if (!addMap(item as Record<string, unknown>)) return undefined;
      } else return undefined;
    }
    return out;
  }
  if (value && typeof value === "object") return addMap(value as Record<string, unknown>) ? out : undefined;
  if (typeof value === "string") return { names: nameList(value) ?? [], inline: [] };
  return undefined;
}

/** Text safe for one terminal line: control characters shown as `?`. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "?").slice(0, 200);
}
