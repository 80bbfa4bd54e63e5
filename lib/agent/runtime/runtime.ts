/**
 * Everything one run needs, assembled once by startRuntime (runtime-start.ts): the model client, MCP
 * servers from the config, the tool list (built-in + MCP, minus --disallowedTools), the system prompt
 * and the input context. Shared by every mode.
 */
import type { Tool } from "../../tools/tool.ts";
import { flagRuleWarnings } from "../permissions/flag-rules.ts";
import { builtinTools } from "../../tools/builtin.ts";
import { NOTHING_ASKED, offeredTools, toolsFlagNames } from "../offered-tools.ts";
import type { ServerConfig } from "../../mcp/config/load.ts";
import type { McpRegistry, ServerSnapshot } from "../../mcp/registry/registry.ts";
import type { McpToolset } from "../mcp/tools.ts";
import { ruleNamesTool, serverRuleName } from "../mcp/names.ts";
import { createModelClient, type ModelClient } from "../model/model.ts";
import { buildSystemPrompt } from "../system-prompt.ts";
import type { McpInput, SkillInput } from "../input/input-shapes.ts";
import { mcpInputOf } from "../mcp-input.ts";
import type { ToolRoute } from "../mcp/tools.ts";
import type { Routes } from "../conversation.ts";
import { pinToolNames } from "../tool-pins.ts";
import { UsageMeter, type UsageTotals, usageMinus } from "../model/usage.ts";
import { errorMessage } from "../../shared/values.ts";
import { ToolSearch, toolSearchMode, type ToolOffer } from "../tool-search/tool-search.ts";
import { AutoCompactor, autoCompactPercent, compact, type CompactInfo, type CompactRequest } from "../compact.ts";
import type { Conversation } from "../conversation.ts";
import type { RuntimeOptions, ServerSummary } from "./runtime-options.ts";
import type { SkillCatalog } from "../skills/catalog.ts";
import type { SystemMessageParam } from "../messages.ts";
import { contextWindow } from "../model/model-table.ts";
import type { Subagents } from "../subagents/setup.ts";
import type { BackgroundWork } from "../background/tools.ts";

export class AgentRuntime {
  /** Names a resumed conversation gave its MCP tools (tool-pins.ts). */
  private pins: Readonly<Routes> = {};
  /** Servers switched off by the host (`mcp_toggle`): their tools are not offered. */
  readonly disabled = new Set<string>();
  /** Routes of the names the last tools() call gave out. */
  private given: Routes | undefined;
  /** Fixed at start-up: a date that changed mid-session would change the cached prefix. */
  private readonly startedAt = new Date();
  /** Deferred MCP tools and the ones found so far (tool-search.ts). */
  readonly toolSearch: ToolSearch;
  /** Settles when every server has connected or failed (at once unless `background`). */
  connected: Promise<void> = Promise.resolve();
  /** Servers still connecting, in configuration order. */
  readonly connecting = new Set<string>();
  private readonly compactor: AutoCompactor;
  /** WebFetch, WebSearch and NotebookEdit (opt-in-tools.ts), built once so caches last the run; offered-tools.ts decides if they are offered. */
  private readonly web: Tool[];
  /** The usage of subagents' model calls (also in `meter`, which prices the whole run). */
  readonly subagentMeter = new UsageMeter();
  /** The Agent tool and the agent types, when this run offers them (subagents/setup.ts). */
  readonly subagents: Subagents | undefined;

  /** Background shells, TaskStop and Monitor (background/), when the offer rule asks for them. */
  backgroundWork: BackgroundWork | undefined;

  /** MCP config entries or files that could not be used at start-up (each was logged then). */
  configProblems = 0;
  /** The run's skills; undefined when nothing could hold one (no skills folder, no MCP server). */
  skills: SkillCatalog | undefined;

  /** Use startRuntime (runtime-start.ts), which assembles what this holds. */
  constructor(
    readonly opts: RuntimeOptions,
    private current: ModelClient,
    readonly registry: McpRegistry | undefined,
    private readonly mcpTools: McpToolset | undefined,
    readonly configured: ServerConfig[],
    /** Usage and cost of every model call of the run: turns, compaction and servers' sampling. */
    readonly meter: UsageMeter,
    /** The tools built with this runtime to call back: WebFetch and the like, and the Agent tool. */
    parts?: (self: AgentRuntime) => { web: Tool[]; subagents: Subagents | undefined },
  ) {
    // -p: a student's personal servers are deferred before the project's (the course's) are.
    const home = new Set(configured.filter((c) => c.origin?.scope === "user" || c.origin?.scope === "local").map((c) => c.name));
    this.toolSearch = new ToolSearch(
      toolSearchMode(opts.toolSearch, opts.log),
      (name) => this.route(name),
      opts.projectToolsFirst ? (server) => home.has(server) : undefined,
    );
    this.compactor = new AutoCompactor(autoCompactPercent(opts.autoCompactPercent, opts.log));
    // The opt-in tools and the Agent tool, built by the start (runtime-start.ts) with this runtime to call back.
    const own = parts?.(this);
    this.web = own?.web ?? [];
    this.subagents = own?.subagents;
  }

  /**
   * The run's usage without its subagents' calls: what a result's top-level `usage` reports, as
   * Claude Code's does (its cost, `total_cost_usd`, counts everything).
   */
  ownUsage(): UsageTotals {
    return usageMinus(this.meter.total(), this.subagentMeter.total());
  }

  /** The model client turns and MCP sampling use. */
  get model(): ModelClient {
    return this.current;
  }

  /**
   * A client for model `id` with this run's caching setting and usage meter (the interactive /model).
   * @throws ModelError when there is no API key.
   */
  createModel(id: string): ModelClient {
    return createModelClient({ model: id, cache: this.opts.cache, meter: this.meter });
  }

  /** Switches the model (the interactive /model): later turns and servers' sampling requests use it. */
  setModel(client: ModelClient): void {
    this.current = client;
  }

  /** Built-in and MCP tools the model may use now (MCP lists can change between calls), minus --disallowedTools. */
  tools(): Tool[] {
    const skill = this.skills?.tool(this.opts.skillGate);
    const mine = [
      ...builtinTools(),
      ...this.web,
      ...(skill ? [skill] : []),
      ...(this.subagents ? [this.subagents.tool] : []),
      ...(this.backgroundWork?.tools ?? []),
    ];
    const own = offeredTools(mine, this.opts.offer ?? NOTHING_ASKED);
    const pinned = pinToolNames([...own, ...(this.mcpTools?.tools() ?? [])], (name) => this.mcpTools?.route(name), this.pins);
    this.given = pinned.routes;
    let all = this.disabled.size ? pinned.tools.filter((t) => !this.disabled.has(pinned.routes[t.name]?.server ?? "")) : pinned.tools;
    const settingsDeny = this.opts.settings?.removes;
    if (settingsDeny) all = all.filter((t) => !settingsDeny(t.name, pinned.routes[t.name]));
    const denied = this.opts.disallowedTools;
    if (denied.length) all = all.filter((t) => !denied.some((rule) => this.matchesRule(t.name, rule)));
    // Bash's background form only beside a TaskStop still on offer (background/tools.ts).
    return this.backgroundWork ? this.backgroundWork.withBackgroundBash(all) : all;
  }

  /**
   * Whether a --allowedTools/--disallowedTools entry names this tool: its API name, or for an MCP
   * tool `mcp__<server>`, `mcp__<server>__*` or `mcp__<server>__<tool>` with the names as the
   * config and the server wrote them (API names may have been rewritten; the registry's table knows).
   */
  matchesRule(toolName: string, rule: string): boolean {
    return ruleNamesTool(rule, toolName, this.route(toolName));
  }

  /**
   * Whether --disallowedTools or a bare settings deny takes `tool` off every list: for a tool
   * outside tools(), a subagent's own inline server's, whose route it carries itself.
   */
  excludes(tool: Tool): boolean {
    const route = this.route(tool.name) ?? tool.mcpRoute;
    if (this.opts.settings?.removes?.(tool.name, route)) return true;
    return this.opts.disallowedTools.some((rule) => ruleNamesTool(rule, tool.name, route));
  }

  /** Keeps the API names a resumed conversation used for its MCP tools (see tool-pins.ts). */
  pinRoutes(routes: Readonly<Routes>): void {
    this.pins = routes;
  }

  /** Where an API tool name of the last tools() call leads (an MCP tool), else undefined. */
  route(toolName: string): ToolRoute | undefined {
    if (!this.given) this.tools();
    return this.given![toolName];
  }

  /** The MCP routes of the names the model was last offered, for the transcript. */
  routes(): Routes {
    this.tools();
    return { ...this.given };
  }

  /** A misspelt --disallowedTools entry would silently leave the tool on: say so (flag-rules.ts). */
  warnUnknownDisallowed(): void {
    const names = [...builtinTools(), ...this.web, ...(this.mcpTools?.tools() ?? [])].map((t) => t.name);
    const lines = flagRuleWarnings({
      toolsFlag: toolsFlagNames(this.opts.offer?.tools),
      allowed: this.opts.allowedTools ?? [],
      disallowed: this.opts.disallowedTools,
      // The Agent tool (and its older name) and background work's tools exist whether or not this run offers them.
      tools: [...names, "Agent", "Task", "TaskStop", "Monitor"],
      servers: this.configured.map((s) => serverRuleName(s.name)),
      matches: (name, rule) => this.matchesRule(name, rule),
    });
    for (const line of lines) this.opts.log(line);
  }

  systemPrompt(): string {
    return buildSystemPrompt({
      cwd: this.opts.cwd,
      override: this.opts.systemPrompt,
      append: this.opts.appendSystemPrompt,
      date: this.startedAt,
      serverInstructions: this.mcpServers()
        .filter((s) => s.status === "connected" && s.instructions)
        .map((s) => ({ name: s.name, instructions: s.instructions! })),
    });
  }

  servers(): ServerSummary[] {
    return this.mcpServers().map((s) => ({ name: s.name, status: s.status, error: s.error, ...(s.needsAuth ? { needsAuth: true } : {}) }));
  }

  /** Every configured MCP server as a snapshot (status, lists, instructions), in configuration order. */
  mcpServers(): ServerSnapshot[] {
    return this.registry?.snapshot() ?? [];
  }

  /** What the next request carries from `tools` for the current model: all in full, or tool search's choice. */
  offer(tools: Tool[]): ToolOffer {
    return this.toolSearch.offer(tools, this.current.model);
  }

  /**
   * `/compact [instructions]`: summarises `conversation` now with the current model, system
   * prompt and tools (so the summary request reads the turns' cached prefix).
   * @throws ModelError when the summary call fails; the conversation is then unchanged.
   */
  compactNow(conversation: Conversation, instructions: string, signal?: AbortSignal): Promise<CompactInfo | undefined> {
    const { definitions } = this.offer(this.tools());
    return compact(conversation, { model: this.current, system: this.systemPrompt(), tools: definitions, signal }, instructions, "manual");
  }

  /**
   * Before a model call: compacts when the last reply's prompt passed the threshold (compact.ts).
   * A failed summary is one log line, and the run goes on uncompacted.
   */
  async autoCompact(conversation: Conversation, request: Omit<CompactRequest, "model">, beforeCompact?: () => Promise<void>): Promise<CompactInfo | undefined> {
    if (this.compactor.due(conversation, this.current.model) === undefined) return undefined;
    // Settings' PreCompact hooks, only when a compaction really starts.
    await beforeCompact?.();
    try {
      return await compact(conversation, { model: this.current, ...request }, "", "auto");
    } catch (err) {
      if (request.signal?.aborted) throw err;
      this.opts.log(`automatic compaction failed: ${errorMessage(err)}`);
      return undefined;
    }
  }

  /**
   * Starts MCP server `name` afresh (`/mcp reconnect`): handshake and lists again, so the next
   * model call sees its tools as they now are. Resolves with its snapshot, connected or failed.
   * @throws Error when no server has that name.
   */
  async reconnectServer(name: string): Promise<ServerSnapshot> {
    if (!this.registry) throw new Error(`no MCP server named "${name}" (none configured)`);
    return this.registry.reconnect(name);
  }

  /** Re-lists tools of servers that sent list_changed; run before every model call. */
  async refresh(): Promise<void> {
    await this.registry?.refresh();
  }

  /**
   * The skills listing every request carries after its first message (loop.ts `context`), as
   * Claude Code places it; undefined with no skill to list.
   */
  skillContext(): SystemMessageParam | undefined {
    return this.skills?.listing(contextWindow(this.current.model));
  }

  /**
   * The context message every turn's requests carry: the skills listing, then the agent listing
   * when the Agent tool is among the tools (never without it).
   */
  context(): SystemMessageParam | undefined {
    const skills = this.skillContext();
    const agents =
      this.subagents && this.tools().some((t) => t === this.subagents!.tool) ? this.subagents.listing(contextWindow(this.current.model)) : undefined;
    if (!agents) return skills;
    return { role: "system", content: [...(skills?.content ?? []), { type: "text", text: agents }] };
  }

  /** The skills as the input layer sees them (`/name args`); undefined without any. */
  skillInput(): SkillInput | undefined {
    return this.skills?.input();
  }

  /** Tools the skills loaded in this turn let run without asking. */
  skillGrants(): string[] {
    return this.skills?.grantedTools() ?? [];
  }

  /** Every allowed-tools rule of this turn's skills, scoped ones included (the gate loads the shell grammar for a scoped Bash one). */
  skillRules(): string[] {
    return this.skills?.grantRules() ?? [];
  }

  /** Whether a scoped allowed-tools rule (`Bash(git:*)`) of this turn's skills lets this call run without asking. */
  skillGrantsCall(toolName: string, input: Record<string, unknown>): boolean {
    return this.skills?.grantsCall(toolName, input, this.route(toolName), this.opts.cwd) ?? false;
  }

  /** The registry as the input layer sees it (prompts and resources; mcp-input.ts). */
  mcpInput(): McpInput | undefined {
    return this.registry && mcpInputOf(this.registry);
  }
}
