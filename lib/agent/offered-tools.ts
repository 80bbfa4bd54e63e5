/**
 * ONE rule for the agent's own tools a run offers the model (the built-ins and the Skill tool; MCP
 * tools are their servers'). It starts from today's set, minus what `--tools` leaves out. A tool of
 * this round is "opt-in": in -p and host mode it joins only when something of this run asks for it:
 * `--tools` or `--allowedTools` naming it, its own flag, a variable of the process environment as the
 * run started (before any settings `env` was applied), or the project's own settings files (a rule
 * naming it in `.claude/settings.json`, `.claude/settings.local.json` or a `--settings` file). Never
 * the user's home: a Claude Code user's `~/.claude` must not grow -p's first request. The interactive
 * session and host mode, as in Claude Code, offer them all.
 * Every new tool registers in OPT_IN, and nowhere else decides.
 */
import type { SettingsDoc } from "./settings/schema.ts";

/** How an opt-in tool may be asked for, besides `--tools` and `--allowedTools` naming it. */
export interface OptIn {
  /** A variable of the process environment that asks for it when set to 1, true or yes. */
  env?: string;
  /** Whether the project's own settings files ask for it beyond a rule naming it (a key of its own). */
  project?(docs: readonly SettingsDoc[]): boolean;
}

/** The tools this round adds, by name (each issue registers its tool here): offered in -p and host mode only when asked for. */
export const OPT_IN: Readonly<Record<string, OptIn>> = {
  WebFetch: { env: "AGENT_WEB_TOOLS" },
  WebSearch: { env: "AGENT_WEB_TOOLS" },
  NotebookEdit: {},
};

export interface OfferContext {
  /** The interactive session or host mode: every opt-in tool is offered. */
  everyOptIn: boolean;
  /** `--tools` as given: absent (today's set), "" (none), "default" (today's set), or names (comma or space separated). */
  tools?: string;
  /** --allowedTools entries (`Name` or `Name(specifier)`). */
  allowedTools: readonly string[];
  /** Opt-in tools that an explicit flag of this run asks for (each issue's own flag). */
  flagged: ReadonlySet<string>;
  /** The process environment as the run started, before any settings `env` was applied. */
  env: Readonly<Record<string, string | undefined>>;
  /** The project's own settings files (project and local scope) and a `--settings` file, never the user's. */
  projectDocs: readonly SettingsDoc[];
}

/** Nothing asks for an opt-in tool: what a run without an offer context gets (fail closed). */
export const NOTHING_ASKED: OfferContext = { everyOptIn: false, allowedTools: [], flagged: new Set(), env: {}, projectDocs: [] };

const ruleTool = (rule: string) => rule.trim().replace(/\(.*$/s, "");
const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes)$/i.test(value.trim());

/** The names `--tools` gives: undefined for today's whole set (absent or "default"), else the list ("" → none). */
export function toolsFlagNames(tools: string | undefined): Set<string> | undefined {
  if (tools === undefined) return undefined;
  const names = tools.split(/[\s,]+/).filter(Boolean);
  if (names.length === 1 && names[0] === "default") return undefined;
  return new Set(names);
}

/** Whether this run asks for the opt-in tool `name`. */
export function asksFor(name: string, ctx: OfferContext, optIn: OptIn | undefined = OPT_IN[name]): boolean {
  if (ctx.everyOptIn) return true;
  if (toolsFlagNames(ctx.tools)?.has(name)) return true;
  if (ctx.allowedTools.some((rule) => ruleTool(rule) === name)) return true;
  if (ctx.flagged.has(name)) return true;
  if (optIn?.env && truthy(ctx.env[optIn.env])) return true;
  const named = (doc: SettingsDoc) => [...(doc.permissions?.allow ?? []), ...(doc.permissions?.ask ?? [])].some((rule) => ruleTool(rule) === name);
  if (ctx.projectDocs.some(named)) return true;
  return optIn?.project?.(ctx.projectDocs) === true;
}

/** The tools of `own` this run offers: --tools' choice, and an opt-in tool only when asked for. */
export function offeredTools<T extends { name: string }>(own: T[], ctx: OfferContext, optIns: Readonly<Record<string, OptIn>> = OPT_IN): T[] {
  const chosen = toolsFlagNames(ctx.tools);
  return own.filter((tool) => {
    if (chosen && !chosen.has(tool.name)) return false;
    return !(tool.name in optIns) || asksFor(tool.name, ctx, optIns[tool.name]);
  });
}
