/**
 * Scoped `allowed-tools` of the skills loaded in a turn (`Bash(git:*)`, `Read(./docs/**)`;
 * Claude Code skills.md, "Restrict tool access"): matched by the settings rule matcher
 * (permissions/rules.ts), so a grant covers exactly what the same `permissions.allow` rule would.
 * Bare names (`Bash`) are the catalog's `grantedTools`, matched like --allowedTools.
 */
import { homeDir } from "../../shared/claude-home.ts";
import { compileRules, PermissionRules, type ToolRoute } from "../permissions/rules.ts";

/** A grant with a specifier: `Tool(spec)` other than `Tool(*)`. */
export const isScopedGrant = (rule: string): boolean => !/^[\w-]+(\(\*\))?$/.test(rule);

/**
 * True when one of the scoped `grants` allows a call of `name` with `input` (an MCP tool's
 * `route` names its server and tool); path specifiers are relative to `cwd`. A malformed grant allows nothing.
 */
export function scopedGrantAllows(grants: readonly string[], name: string, input: Record<string, unknown>, route: ToolRoute | undefined, cwd: string): boolean {
  const scoped = grants.filter(isScopedGrant);
  if (!scoped.length) return false;
  const file = { scope: "local" as const, path: "allowed-tools", root: cwd, doc: {} };
  const ctx = { cwd, home: homeDir(), warn: () => {} };
  const rules = new PermissionRules(
    compileRules(
      scoped.map((text) => ({ text, behavior: "allow" as const, file })),
      ctx,
    ),
    ctx,
  );
  return rules.decide(name, input, route)?.behavior === "allow";
}
