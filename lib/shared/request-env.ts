/**
 * The grader's ground: every environment variable that changes `-p`'s tools, context messages,
 * first request or a server's first frame, in one list that later features extend with theirs.
 * In `-p` (and host mode) these come only from the process environment and flags, never from a
 * settings file's `env`: a Claude Code user's `~/.claude/settings.json` must not move what a
 * scripted run sends. Every other settings `env` variable still applies. A divergence from Claude
 * Code, which lets settings `env` set them too.
 */
export const REQUEST_SHAPING_ENV: readonly string[] = [
  // `auto` moves a 2025 server's first frame from initialize to server/discover.
  "MCP_PROTOCOL_NEGOTIATION",
  // `true` takes every MCP tool out of the first request.
  "ENABLE_TOOL_SEARCH",
  // Drops the cache_control breakpoints.
  "DISABLE_PROMPT_CACHING",
  // This round's opt-in tools (offered-tools.ts reads them from the launch environment already;
  // listed so nothing that reads process.env later sees a home's value).
  "AGENT_WEB_TOOLS",
  "AGENT_SUBAGENTS",
  "AGENT_BACKGROUND_TASKS",
  "CLAUDE_CODE_ENABLE_TODO_TOOLS",
  // `0` swaps the four Task tools for TodoWrite.
  "CLAUDE_CODE_ENABLE_TASKS",
  // Turns on file checkpoints in -p and host mode: files under ~/.claude/file-history.
  "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING",
];

/** The current values of the list in `env` (undefined for unset ones), to put back with `restoreRequestEnv`. */
export function snapshotRequestEnv(env: Record<string, string | undefined> = process.env): Map<string, string | undefined> {
  return new Map(REQUEST_SHAPING_ENV.map((name) => [name, env[name]]));
}

/** Puts the listed variables back as `snapshot` had them: whatever a settings file set in between is undone. */
export function restoreRequestEnv(snapshot: Map<string, string | undefined>, env: Record<string, string | undefined> = process.env): void {
  for (const [name, value] of snapshot) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
}
