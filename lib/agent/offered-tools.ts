/**
 * ONE rule for the agent's own tools a run offers the model (the built-ins, this round's tools and
 * the Skill tool; MCP tools are their servers'). It starts from today's set, minus what `--tools`
 * leaves out.
 * A tool of this round is "opt-in", registered in OPT_IN: the interactive session and host mode offer
 * it by default; in -p it joins only when something of this run asks for it: `--tools` or
 * `--allowedTools` naming it, its own flag (`--agents`, or the working directory's own agent files,
 * which the CLI passes as `flagged`), its variable in the environment the process started with (a
 * settings file's `env` never counts), or an allow or ask rule naming it in the project's own
 * settings files or `--settings`. Never the user's home: a
 * Claude Code user's `~/.claude` must not grow -p's first request. `--disallowedTools` and deny
 * rules still take tools off afterwards (runtime.ts). Every new tool registers here, and nowhere
 * else decides.
 */

/** How an opt-in tool may be asked for in -p, besides `--tools`, `--allowedTools` and settings rules naming it. */
export interface OptIn {
  /** A variable of the process environment that asks for it (set, and not empty, 0, false or no). */
  env?: string;
  /** It needs a person (a plan's approval, questions): never offered in -p, whatever asks. */
  interactiveOnly?: boolean;
  /** Tools that come together: asking for one by name asks for every tool of its group. */
  group?: string;
}

/** The tools this round adds, by name: offered in -p only when asked for. */
export const OPT_IN: Readonly<Record<string, OptIn>> = {
  WebFetch: { env: "AGENT_WEB_TOOLS" },
  WebSearch: { env: "AGENT_WEB_TOOLS" },
  NotebookEdit: {},
  Agent: { env: "AGENT_SUBAGENTS" },
  // Plan mode, the task list and questions (Claude Code's switch for its todo tools).
  ExitPlanMode: { interactiveOnly: true },
  AskUserQuestion: { interactiveOnly: true },
  TaskCreate: { env: "CLAUDE_CODE_ENABLE_TODO_TOOLS", group: "task-list" },
  TaskGet: { env: "CLAUDE_CODE_ENABLE_TODO_TOOLS", group: "task-list" },
  TaskList: { env: "CLAUDE_CODE_ENABLE_TODO_TOOLS", group: "task-list" },
  TaskUpdate: { env: "CLAUDE_CODE_ENABLE_TODO_TOOLS", group: "task-list" },
  TodoWrite: { env: "CLAUDE_CODE_ENABLE_TODO_TOOLS", group: "task-list" },
  // Background work (agent/background): with TaskStop offered, Bash takes its form with run_in_background.
  TaskStop: { env: "AGENT_BACKGROUND_TASKS", group: "background" },
  Monitor: { env: "AGENT_BACKGROUND_TASKS", group: "background" },
};

/** Older names a flag may use for a tool: Claude Code's init and older transcripts call the Agent tool `Task`. */
const ALIASES: Readonly<Record<string, string>> = { Task: "Agent" };

export interface OfferContext {
  mode: "print" | "session" | "host";
  /** The process environment as the run started. */
  env: Readonly<Record<string, string | undefined>>;
  /** `--allowedTools` entries (`Name` or `Name(specifier)`). */
  allowedTools: readonly string[];
  /** The run's settings rules, each with the scope of its file. */
  rules: readonly { text: string; behavior: "allow" | "ask" | "deny"; scope: string }[];
  /** `--tools` as given: absent (today's set), "" (none), "default" (today's set), or names (comma or space separated). */
  tools?: string;
  /** Opt-in tools that an explicit flag of this run asks for (each issue's own flag). */
  flagged?: ReadonlySet<string>;
}

/** Nothing asks for an opt-in tool: what a run without an offer context gets (fail closed). */
export const NOTHING_ASKED: OfferContext = { mode: "print", env: {}, allowedTools: [], rules: [] };

/** Settings scopes that are the project's own files or a flag, never the user's home. */
const NOT_HOME = new Set(["project", "local", "flag"]);

const names = (text: string, tool: string) => text.trim() === tool || text.trim().startsWith(`${tool}(`);
const truthy = (value: string | undefined) => value !== undefined && !["", "0", "false", "no"].includes(value.trim().toLowerCase());

/** The names `--tools` gives: undefined for today's whole set (absent or "default"), else the list ("" → none). */
export function toolsFlagNames(tools: string | undefined): Set<string> | undefined {
  if (tools === undefined) return undefined;
  const list = tools.split(/[\s,]+/).filter(Boolean);
  if (list.length === 1 && list[0] === "default") return undefined;
  return new Set(list.map((name) => ALIASES[name] ?? name));
}

/** Whether this run asks for the opt-in tool `tool`, by the rule above. */
export function asksFor(tool: string, ctx: OfferContext, optIn: OptIn | undefined = OPT_IN[tool]): boolean {
  if (ctx.mode !== "print") return true;
  if (optIn?.interactiveOnly) return false;
  if (optIn?.group) {
    const group = Object.keys(OPT_IN).filter((name) => OPT_IN[name]!.group === optIn.group);
    return group.some((name) => asksByName(name, ctx, OPT_IN[name]));
  }
  return asksByName(tool, ctx, optIn);
}

function asksByName(tool: string, ctx: OfferContext, optIn: OptIn | undefined): boolean {
  if (toolsFlagNames(ctx.tools)?.has(tool)) return true;
  if (ctx.flagged?.has(tool)) return true;
  if (optIn?.env && truthy(ctx.env[optIn.env])) return true;
  if (ctx.allowedTools.some((t) => names(t, tool))) return true;
  return ctx.rules.some((r) => r.behavior !== "deny" && NOT_HOME.has(r.scope) && names(r.text, tool));
}

/** Whether this run offers the tool `name`: --tools' choice, and for an opt-in tool, something asking for it. */
export function offers(name: string, ctx: OfferContext, optIns: Readonly<Record<string, OptIn>> = OPT_IN): boolean {
  const chosen = toolsFlagNames(ctx.tools);
  if (chosen && !chosen.has(name)) return false;
  return !(name in optIns) || asksFor(name, ctx, optIns[name]);
}

/** The tools of `own` this run offers: --tools' choice, and an opt-in tool only when asked for. */
export function offeredTools<T extends { name: string }>(own: T[], ctx: OfferContext, optIns: Readonly<Record<string, OptIn>> = OPT_IN): T[] {
  return own.filter((tool) => offers(tool.name, ctx, optIns));
}
