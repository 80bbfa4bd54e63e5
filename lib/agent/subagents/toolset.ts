/**
 * Which of the parent's tools a subagent gets, as Claude Code decides (CC-AGENT-NOTES §1.3):
 * - `tools` absent: every tool the parent has, MCP tools included (through tool search when the
 *   parent uses it); `tools` present: only those, an MCP tool it names with its full schema;
 * - `disallowedTools` then takes tools away; the read-only built-ins lose Edit, Write, NotebookEdit,
 *   Agent and Bash;
 * - `mcpServers` naming configured servers keeps only those servers' MCP tools;
 * - the Agent tool is offered to agents without `tools` (and to those naming it) while the new
 *   agent's depth is below MAX_DEPTH; the `--json-schema` tool, ExitPlanMode and AskUserQuestion are the parent turn's alone.
 */
import type { Tool } from "../../tools/tool.ts";
import { bashTool } from "../../tools/bash.ts";
import type { AgentDefinition } from "./types.ts";

/** Subagents of subagents, but no deeper: an agent at this depth is not offered the Agent tool. */
export const MAX_DEPTH = 2;

export const AGENT_TOOL = "Agent";
/** Tools a subagent never gets: the --json-schema tool, ExitPlanMode, AskUserQuestion, and background work's. */
const PARENT_ONLY = new Set(["StructuredOutput", "ExitPlanMode", "AskUserQuestion", "TaskStop", "Monitor"]);
/** Claude Code's older name for the Agent tool (its init event and older transcripts). */
export const AGENT_TOOL_ALIAS = "Task";

export interface ToolMatch {
  /** Whether a rule (`Read`, `mcp__srv`, `mcp__srv__*`, `mcp__srv__tool`) names the tool (AgentRuntime.matchesRule). */
  matches(toolName: string, rule: string): boolean;
  /** The MCP server a tool's API name leads to, if any. */
  server(toolName: string): string | undefined;
  /** Whether the run's --disallowedTools or a bare settings deny removes the tool (AgentRuntime.excludes). */
  excludes?(tool: Tool): boolean;
}

/** A `tools` entry as a rule: `Agent(Explore)` and `Task` both name the Agent tool. */
function ruleOf(entry: string): string {
  const base = entry.replace(/\(.*\)$/, "").trim();
  return base === AGENT_TOOL_ALIAS ? AGENT_TOOL : base;
}

/**
 * The tools for a subagent of `def` running at `depth` (1 for the main conversation's subagents),
 * from the parent's `parentTools`; `extra` are the agent's own (its inline servers' tools), always kept.
 */
export function subagentTools(def: AgentDefinition, parentTools: readonly Tool[], depth: number, m: ToolMatch, extra: readonly Tool[] = []): Tool[] {
  const named = (t: Tool, list: readonly string[]) => list.some((e) => m.matches(t.name, ruleOf(e)));
  // The plan's approval and questions to the user are the main conversation's, and so is background
  // work (its notices go there): a subagent gets Bash's first form and no TaskStop or Monitor.
  let tools = parentTools.filter((t) => !PARENT_ONLY.has(t.name)).map((t) => (t.name === "Bash" && t.inputSchema.properties?.run_in_background ? bashTool : t));
  if (def.tools) tools = tools.filter((t) => named(t, def.tools!));
  const limitTo = def.mcpServers?.names;
  if (limitTo?.length)
    tools = tools.filter((t) => {
      const server = m.server(t.name);
      return server === undefined || limitTo.includes(server);
    });
  // The agent's own servers' tools meet the run's exclusions as the parent's tools already did.
  tools = [...tools, ...extra.filter((e) => !tools.some((t) => t.name === e.name) && !m.excludes?.(e))];
  if (def.disallowedTools?.length) tools = tools.filter((t) => !named(t, def.disallowedTools!));
  if (depth >= MAX_DEPTH) tools = tools.filter((t) => t.name !== AGENT_TOOL);
  return tools;
}
