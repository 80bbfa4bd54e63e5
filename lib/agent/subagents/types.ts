/**
 * What an agent type is once loaded, wherever it came from: a built-in, a Markdown file with front
 * matter (`.claude/agents/*.md` in the project or the user's config folder), an `--agents` JSON
 * entry, or the Agent SDK's `agents` option. The keys are Claude Code's (CC-AGENT-NOTES §1.6).
 */

/** Where a definition came from, as `/agents` and the clash line name it. */
export type AgentSource = "built-in" | "user" | "project" | "flag" | "sdk";

/** An inline MCP server of an agent (`mcpServers: [{name: {command, args, env}}]`), as written. */
export interface InlineServer {
  name: string;
  config: Record<string, unknown>;
}

export interface AgentDefinition {
  /** The `subagent_type` that picks it. */
  name: string;
  description: string;
  /** The agent's own system prompt (a file's body, the JSON `prompt`). */
  prompt: string;
  /** Tool names it may use; undefined: every tool the parent has. */
  tools?: string[];
  /** Tool names taken away (after `tools`). */
  disallowedTools?: string[];
  /** `inherit`, an alias (`sonnet`) or a model id; undefined: the parent's model. */
  model?: string;
  /** A permission mode that may only tighten the parent's. */
  permissionMode?: string;
  /** Configured servers it is limited to (names), and servers it starts for itself. */
  mcpServers?: { names: string[]; inline: InlineServer[] };
  skills?: string[];
  /** Model calls before the subagent is stopped. */
  maxTurns?: number;
  source: AgentSource;
  /** The file it was read from, for messages. */
  path?: string;
  /** Built-ins that never change anything: no Edit, Write, NotebookEdit, Agent (and no Bash yet). */
  readOnly?: boolean;
}
