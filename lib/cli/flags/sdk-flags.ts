/**
 * Flags the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, its ProcessTransport) can pass to
 * the executable it runs, read from its code, with their arity. The ones below are accepted and
 * ignored, with one --verbose note: refusing one would break every SDK program that sets it.
 * Those we honour are ordinary flags in args.ts. Any other unknown flag is still a usage error.
 */

/** Ignored SDK flags: "string" takes a value (`--x v` or `--x=v`), "boolean" none. */
export const SDK_IGNORED = {
  "max-thinking-tokens": { type: "string" },
  thinking: { type: "string" },
  "thinking-display": { type: "string" },
  effort: { type: "string" },
  "max-budget-usd": { type: "string" },
  "task-budget": { type: "string" },
  agent: { type: "string" },
  betas: { type: "string" },
  "debug-file": { type: "string" },
  "permission-prompts": { type: "string" },
  channels: { type: "string", multiple: true },
  "fallback-model": { type: "string" },
  "project-config-root": { type: "string" },
  "add-dir": { type: "string", multiple: true },
  "plugin-dir": { type: "string", multiple: true },
  "plugin-dir-no-mcp": { type: "string", multiple: true },
  "resume-session-at": { type: "string" },
  "resume-drops-turn": { type: "string" },
  "initialize-fields": { type: "string" },
  "managed-settings": { type: "string" },
  "sdk-url": { type: "string" },
  "allow-dangerously-skip-permissions": { type: "boolean" },
  "include-hook-events": { type: "boolean" },
  "session-mirror": { type: "boolean" },
  "await-initialize": { type: "boolean" },
  "managed-settings-in-initialize": { type: "boolean" },
  "debug-to-stderr": { type: "boolean" },
} as const;

/** The ignored SDK flags present in parsed `values`, as `--name`, in table order. */
export function ignoredSdkFlags(values: Record<string, unknown>): string[] {
  return Object.keys(SDK_IGNORED)
    .filter((k) => values[k] !== undefined)
    .map((k) => `--${k}`);
}
