/**
 * Tool search: when MCP tool definitions would take more than a share of the model's context
 * window, send the built-in tools and a `ToolSearch` tool in full, name the deferred MCP tools
 * (with their servers) in ToolSearch's description, and send each tool ToolSearch finds in full
 * from then on. Below the threshold nothing changes: every tool goes out in full.
 *
 * `ENABLE_TOOL_SEARCH` (Claude Code's variable): unset or `auto` starts it past 10 % of the
 * context window, `auto:N` past N %; `true` always; `false` never; `server` uses the Messages
 * API's own tool search instead (`defer_loading` and its BM25 tool: opt-in only, since gateways,
 * other providers and test servers lack it). `auto` needs the model's window
 * (model-table.ts): for an unknown model it never starts.
 */
import type { Tool, ToolOutput } from "../../tools/tool.ts";
import type { ApiToolDefinition } from "../messages.ts";
import { contextWindow } from "../model/model-table.ts";
import { rankTools, type RankedTool } from "./rank.ts";

export const TOOL_SEARCH_NAME = "ToolSearch";
/** The server-side variant's tool (Messages API tool search tool, BM25 flavour). */
const SERVER_SEARCH_TOOL = { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" };
const DEFAULT_PERCENT = 10;
const DEFAULT_RESULTS = 5;
/** Characters per token for estimating definitions' size: the usual rule of thumb for English and JSON. */
const CHARS_PER_TOKEN = 4;

export type ToolSearchMode = { kind: "auto"; percent: number } | { kind: "on" } | { kind: "off" } | { kind: "server" };

/** What one request carries (`definitions`) and which tools a tool_use may name (`routable`). */
export interface ToolOffer {
  definitions: ApiToolDefinition[];
  routable: Tool[];
}

/** Where an MCP tool comes from; undefined for a built-in tool. */
export type RouteOf = (apiName: string) => { server: string; tool: string } | undefined;

/** `ENABLE_TOOL_SEARCH` read; a value it does not know is reported through `warn` and read as `auto`. */
export function toolSearchMode(value: string | undefined, warn: (line: string) => void): ToolSearchMode {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "" || v === "auto") return { kind: "auto", percent: DEFAULT_PERCENT };
  if (["true", "1", "on"].includes(v)) return { kind: "on" };
  if (["false", "0", "off"].includes(v)) return { kind: "off" };
  if (v === "server") return { kind: "server" };
  const pct = /^auto:(\d+(?:\.\d+)?)$/.exec(v);
  if (pct && Number(pct[1]) <= 100) return { kind: "auto", percent: Number(pct[1]) };
  warn(`ENABLE_TOOL_SEARCH: "${value}" is not auto, auto:N (0-100), true, false or server; using auto`);
  return { kind: "auto", percent: DEFAULT_PERCENT };
}

export const toApi = (t: Tool): ApiToolDefinition => ({ name: t.name, description: t.description, input_schema: t.inputSchema });

/** Tokens the definitions of `tools` take, estimated from their JSON size. */
export function definitionTokens(tools: readonly Tool[]): number {
  let chars = 0;
  for (const t of tools) chars += JSON.stringify(toApi(t)).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * Built-in tools deferred with the MCP tools once tool search is on, as Claude Code defers them:
 * listed under "built-in" and loaded by a search like any other.
 */
const DEFERRED_BUILTINS = new Set(["WebFetch", "WebSearch"]);

/** One run's tool search: whether it is on, and which deferred tools have been found so far. */
export class ToolSearch {
  /** Once on, on for the rest of the run: switching back would rebuild the cached prefix. */
  private active = false;
  private readonly loaded = new Set<string>();

  /** An MCP tool's route, or "built-in" for a deferred built-in tool. */
  private readonly routeOf: RouteOf;

  constructor(
    readonly mode: ToolSearchMode,
    routeOf: RouteOf,
    /**
     * -p: whether a server comes from the user's home (user or local scope). Past the threshold
     * their tools are deferred first: the project's servers (the course's) stay in full unless
     * they alone pass it. Absent, every MCP tool is deferred alike.
     */
    private readonly fromHome?: (server: string) => boolean,
  ) {
    this.routeOf = (name) => routeOf(name) ?? (DEFERRED_BUILTINS.has(name) ? { server: "built-in", tool: name } : undefined);
  }

  /** True once client-side tool search has started in this run. */
  get isActive(): boolean {
    return this.active;
  }

  /** The request's tools for `model`, from every current tool (built-in first, then MCP, in order). */
  offer(all: readonly Tool[], model: string): ToolOffer {
    const mcp = all.filter((t) => this.routeOf(t.name));
    // Only MCP tools start tool search: a run with none keeps every built-in tool in full.
    if (!mcp.some((t) => !DEFERRED_BUILTINS.has(t.name)) || this.mode.kind === "off") return { definitions: all.map(toApi), routable: [...all] };
    if (this.mode.kind === "server") {
      const definitions = all.map((t) => (this.routeOf(t.name) ? { ...toApi(t), defer_loading: true } : toApi(t)));
      return { definitions: [...definitions, SERVER_SEARCH_TOOL], routable: [...all] };
    }
    if (!this.active) this.active = this.mode.kind === "on" || this.overThreshold(mcp, model, this.mode.percent);
    if (!this.active) return { definitions: all.map(toApi), routable: [...all] };
    const builtins = all.filter((t) => !this.routeOf(t.name));
    const kept = this.keptInFull(mcp, model);
    const inFull = new Set(kept);
    const deferred = kept.length ? mcp.filter((t) => !inFull.has(t)) : mcp;
    const search = this.searchTool(deferred);
    const loaded = deferred.filter((t) => this.loaded.has(t.name));
    // A deferred tool called without a search still runs (routed by name), and is loaded from then on.
    const routable = [...builtins, ...kept, search, ...deferred.map((t) => (this.loaded.has(t.name) ? t : this.loadingOnCall(t)))];
    return { definitions: [...builtins, ...kept, search, ...loaded].map(toApi), routable };
  }

  /** In auto mode with `fromHome`: the tools of servers not from the home, when they alone stay under the threshold. */
  private keptInFull(mcp: readonly Tool[], model: string): Tool[] {
    if (this.mode.kind !== "auto" || !this.fromHome) return [];
    const own = mcp.filter((t) => !this.fromHome!(this.routeOf(t.name)!.server));
    if (!own.length || own.length === mcp.length || this.overThreshold(own, model, this.mode.percent)) return [];
    return own;
  }

  private overThreshold(mcp: readonly Tool[], model: string, percent: number): boolean {
    const window = contextWindow(model);
    if (window === undefined) return false;
    return definitionTokens(mcp) > (window * percent) / 100;
  }

  private loadingOnCall(tool: Tool): Tool {
    return {
      ...tool,
      run: (input, ctx) => {
        this.loaded.add(tool.name);
        return tool.run(input, ctx);
      },
    };
  }

  private searchTool(mcp: readonly Tool[]): Tool {
    const byServer = new Map<string, Tool[]>();
    for (const t of mcp) {
      const server = this.routeOf(t.name)!.server;
      // Appended in place: copying the list per tool made 100 000 tools quadratic.
      const list = byServer.get(server);
      if (list) list.push(t);
      else byServer.set(server, [t]);
    }
    const list = [...byServer].map(([server, tools]) => `- ${server}: ${compactNames(tools)}`).join("\n");
    return {
      name: TOOL_SEARCH_NAME,
      // Built from every MCP tool, loaded or not, so that loading one leaves this text unchanged.
      description:
        "Loads MCP tools that are deferred: they are listed below by name but their definitions are not sent until found. " +
        'Query with keywords about what the tool does, its name or its arguments ("create github issue"; "+word" requires the word in the tool\'s or server\'s name), ' +
        'or "select:<name>,<name>" for exact names. Each match\'s full definition is sent with every later request, so call it on the next turn. ' +
        `${mcp.length} deferred tools, by server ("prefix*: a, b" names prefix + a and prefix + b):\n${list}`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: 'Keywords, or "select:<name>,<name>"' },
          max_results: { type: "number", description: `How many matches to return (default ${DEFAULT_RESULTS})` },
        },
        required: ["query"],
      },
      readOnly: true,
      run: async (input) => this.search(mcp, input),
    };
  }

  private search(mcp: readonly Tool[], input: Record<string, unknown>): ToolOutput {
    const query = typeof input.query === "string" ? input.query.trim() : "";
    if (!query) return { isError: true, content: "ToolSearch: `query` must be a non-empty string" };
    const limit = typeof input.max_results === "number" && input.max_results >= 1 ? Math.min(Math.floor(input.max_results), 50) : DEFAULT_RESULTS;
    const matches = query.toLowerCase().startsWith("select:") ? this.select(mcp, query.slice(7)) : this.rank(mcp, query, limit);
    if (!matches.length) {
      return { content: `No deferred tool matches "${query}". Try other keywords, or select:<name> with a name from the list.` };
    }
    for (const t of matches) this.loaded.add(t.name);
    const lines = matches.map((t) => {
      const route = this.routeOf(t.name)!;
      const props = t.inputSchema.properties ?? {};
      const required = new Set(t.inputSchema.required ?? []);
      const args = Object.keys(props).map((a) => (required.has(a) ? `${a} (required)` : a));
      return `${t.name} (server ${route.server}): ${t.description}${args.length ? `\nArguments: ${args.join(", ")}` : ""}`;
    });
    return { content: `${lines.join("\n\n")}\n\nThese tools are loaded: their full definitions come with the next request; call them directly.` };
  }

  private select(mcp: readonly Tool[], names: string): Tool[] {
    const wanted = names
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    return mcp.filter((t) => wanted.some((w) => w === t.name || w === this.routeOf(t.name)!.tool));
  }

  private rank(mcp: readonly Tool[], query: string, limit: number): Tool[] {
    const byName = new Map(mcp.map((t) => [t.name, t]));
    const ranked: RankedTool[] = mcp.map((t) => {
      const route = this.routeOf(t.name)!;
      const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
      const argText = Object.values(props)
        .map((p) => (typeof p?.description === "string" ? p.description : ""))
        .join(" ");
      return { name: t.name, tool: route.tool, server: route.server, description: t.description, args: Object.keys(props), argText };
    });
    return rankTools(ranked, query, limit).map((r) => byName.get(r.name)!);
  }
}

/**
 * One server's API names, their shared `mcp__<server>__` prefix written once ("mcp__gh__*:
 * create_issue, get_me"): a third of the list's bytes with 400 tools. Names without the prefix
 * (rewritten to fit the API) follow in full.
 */
function compactNames(tools: readonly Tool[]): string {
  const prefix = /^mcp__.+?__/.exec(tools[0]!.name)?.[0];
  if (!prefix) return tools.map((t) => t.name).join(", ");
  const isShort = (t: Tool) => t.name.startsWith(prefix) && t.name.length > prefix.length;
  const short = tools.filter(isShort);
  const rest = tools.filter((t) => !isShort(t));
  const parts = short.length ? [`${prefix}*: ${short.map((t) => t.name.slice(prefix.length)).join(", ")}`] : [];
  if (rest.length) parts.push(rest.map((t) => t.name).join(", "));
  return parts.join("; ");
}
