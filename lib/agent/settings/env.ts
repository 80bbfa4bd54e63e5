/**
 * Applies settings `env` to the agent's own environment (Claude Code settings.md, "env"), so that
 * Bash, hooks and MCP servers inherit it. Divergence from Claude Code, which lets settings override:
 * a variable already set in the process wins for `ANTHROPIC_*`, `MCP_PROTOCOL_NEGOTIATION`,
 * `ENABLE_TOOL_SEARCH` and `CLAUDE_CONFIG_DIR`, so that a user's home cannot redirect a scripted run.
 */

const PROCESS_WINS = /^(ANTHROPIC_.*|MCP_PROTOCOL_NEGOTIATION|ENABLE_TOOL_SEARCH|CLAUDE_CONFIG_DIR)$/;

/** Writes `values` into `target` (process.env by default), except where the process already set a PROCESS_WINS name. */
export function applySettingsEnv(values: Record<string, string>, target: Record<string, string | undefined> = process.env): void {
  for (const [name, value] of Object.entries(values)) {
    if (PROCESS_WINS.test(name) && target[name] !== undefined) continue;
    target[name] = value;
  }
}
