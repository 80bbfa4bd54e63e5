/**
 * Which tool calls need permission under Claude Code's permission modes (`--permission-mode`):
 * `default` asks before every tool but those that declare `asksPermission: false` (Read, Glob,
 * Grep); `acceptEdits` also lets Write and Edit run; `bypassPermissions` never asks; `dontAsk`
 * needs permission where `default` does, and refuses what no rule or flag allowed (policy/decide.ts). MCP tools
 * always ask outside `bypassPermissions`, whatever their readOnlyHint: a hint from a server is not our consent.
 * `plan` lets run only what plan mode allows (policy/plan-mode.ts, applied in decide.ts) and asks nothing more.
 */
import type { Tool } from "../../tools/tool.ts";

export type PermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "dontAsk" | "plan";

export const PERMISSION_MODES: readonly PermissionMode[] = ["default", "acceptEdits", "bypassPermissions", "dontAsk", "plan"];

const EDITS = new Set(["Write", "Edit", "NotebookEdit"]);

/** True when `tool` must be allowed (by a rule or by someone) before it runs in `mode`. */
export function needsPermission(tool: Pick<Tool, "name" | "asksPermission">, mode: PermissionMode): boolean {
  if (mode === "bypassPermissions" || mode === "plan") return false;
  if (tool.asksPermission === false) return false;
  if (mode === "acceptEdits" && EDITS.has(tool.name)) return false;
  return true;
}

/** True when one of `allowed` (--allowedTools entries and "always" answers) names `toolName`, as `matches` decides. */
export function isAllowed(toolName: string, allowed: Iterable<string>, matches: RuleMatcher): boolean {
  for (const rule of allowed) if (matches(toolName, rule)) return true;
  return false;
}

/** Whether a rule names a tool; the session's matcher also knows MCP names as the config wrote them. */
export type RuleMatcher = (toolName: string, rule: string) => boolean;
