/**
 * What `/permissions` and `/hooks` show in the session (Claude Code's /permissions and /hooks):
 * the effective rules and hooks, each with the file it came from, in the order they are checked.
 */
import type { RunSettings } from "./run-settings.ts";

/**
 * Tools a rule may name here, every tool of ours whether or not this run offers it (a rule's
 * `Monitor` or `TaskCreate` also asks -p to offer it); any other name (Claude Code's `Task`,
 * `LSP`…) is kept but never matches.
 */
const OURS =
  /^(Bash|Read|Edit|Write|Glob|Grep|ToolSearch|WebFetch|WebSearch|NotebookEdit|Skill|Agent|TaskStop|Monitor|TaskCreate|TaskGet|TaskList|TaskUpdate|TodoWrite|AskUserQuestion|ExitPlanMode|StructuredOutput|mcp__.*|\*)$/;

const where = (path: string, cwd: string) => (path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path);

/** One line per rule (`deny   Bash(rm:*)   .claude/settings.json`), deny first; a note when there is none. */
export function describeRules(settings: RunSettings | undefined): string {
  const rules = settings?.rules.rules ?? [];
  if (!rules.length) return "No permission rules (settings files: permissions.allow, ask, deny).\n";
  const order = { deny: 0, ask: 1, allow: 2 } as const;
  const sorted = [...rules].sort((a, b) => order[a.source.behavior] - order[b.source.behavior]);
  const width = Math.max(...sorted.map((r) => r.source.text.length));
  const lines = sorted.map((r) => {
    const unused = OURS.test(r.tool) ? "" : "  (unused: no such tool here)";
    return `${r.source.behavior.padEnd(5)}  ${r.source.text.padEnd(width)}  ${where(r.source.file.path, settings!.cwd)}${unused}`;
  });
  return `${lines.join("\n")}\n`;
}

/** One line per hook (`PreToolUse  Bash  ./fmt.sh  .claude/settings.json`); a note when there is none. */
export function describeHooks(settings: RunSettings | undefined): string {
  const hooks = settings?.hooks ?? [];
  if (!hooks.length) return "No hooks (settings files: hooks).\n";
  const lines = hooks.map(
    (h) => `${h.event}  ${h.matcher || "*"}  ${h.command}${h.timeout ? `  (timeout ${h.timeout} s)` : ""}  ${where(h.source, settings!.cwd)}`,
  );
  return `${lines.join("\n")}\n`;
}
