/**
 * The start of a runtime (runtime.ts), once per run: the model client (failing fast on a missing key),
 * the configured MCP servers started together (every handshake before the first model call, unless the
 * session starts them in the background), and the code of subagents, background work and skills loaded
 * only when this run offers them.
 */
import type { Tool } from "../../tools/tool.ts";
import { NOTHING_ASKED, offers } from "../offered-tools.ts";
import type { McpRegistry } from "../../mcp/registry/registry.ts";
import type { McpToolset } from "../mcp/tools.ts";
import { createModelClient, optionalModel } from "../model/model.ts";
import { onShutdown } from "../lifecycle.ts";
import { configuredServers, startServers } from "../mcp/servers.ts";
import { UsageMeter } from "../model/usage.ts";
import { keepSpills, removeSpills } from "../../files/spill.ts";
import type { RuntimeOptions } from "./runtime-options.ts";
import { openSkills } from "../skills/open.ts";
import { optInTools } from "../opt-in-tools.ts";
import type { setupSubagents, Subagents } from "../subagents/setup.ts";
import { AgentRuntime } from "./runtime.ts";

/**
 * Creates the model client (failing fast on a missing key), then starts every configured MCP
 * server concurrently; failed servers are reported through `log` and skipped.
 * @throws ModelError when there is no API key; McpConfigFlagError when an `--mcp-config` value gives no servers.
 */
export async function startRuntime(opts: RuntimeOptions): Promise<AgentRuntime> {
  const meter = new UsageMeter();
  if (opts.keepToolResults) keepSpills();
  else onShutdown(async () => removeSpills());
  const settings = { cache: opts.cache, meter };
  const model = opts.modelOptional ? optionalModel(opts.model, settings) : createModelClient({ model: opts.model, ...settings });
  let session: AgentRuntime | undefined; // set once servers are up; sampling may come sooner
  // Names still connecting: the runtime's own set once it exists.
  let pending = new Set<string>();
  let connected: Promise<void> = Promise.resolve();
  const { servers, notApproved, problems } = await configuredServers(opts);
  let registry: McpRegistry | undefined;
  let mcpTools: McpToolset | undefined;
  if (servers.length) {
    const starting = servers.filter((s) => !s.disabled && !notApproved.has(s.name));
    for (const s of starting) pending.add(s.name);
    if (starting.length) opts.onMcpStart?.(starting.length);
    const started = await startServers(opts, servers, notApproved, {
      model: () => session?.model ?? model,
      settled: (name) => pending.delete(name),
    });
    registry = started.registry;
    mcpTools = started.tools;
    const connecting = started.connecting;
    model.preload();
    if (opts.background) connected = connecting;
    else await connecting;
  } else {
    model.preload();
  }
  // The subagents' code (agent files, YAML) loads only when the one offer rule asks for Agent.
  const setup = opts.subagents && offers("Agent", opts.offer ?? NOTHING_ASKED) ? (await import("../subagents/setup.ts")).setupSubagents : undefined;
  session = new AgentRuntime(opts, model, registry, mcpTools, servers, meter, (self) => runtimeParts(self, setup));
  session.configProblems = problems;
  // Background work's code loads only when the one offer rule asks for it (TaskStop, Monitor).
  if (offers("TaskStop", opts.offer ?? NOTHING_ASKED) || offers("Monitor", opts.offer ?? NOTHING_ASKED)) {
    session.backgroundWork = (await import("../background/tools.ts")).backgroundWork();
  }
  session.skills = await openSkills({ cwd: opts.cwd, sources: opts.skillSources, only: opts.skills, log: opts.log, debug: opts.debug, registry });
  const made = session;
  for (const name of pending) made.connecting.add(name);
  pending = made.connecting;
  if (opts.background) made.connected = connected.then(() => made.warnUnknownDisallowed());
  else made.warnUnknownDisallowed();
  return session;
}

/** The tools that call back into the runtime: WebFetch, WebSearch and NotebookEdit, and the Agent tool. */
function runtimeParts(self: AgentRuntime, setup: typeof setupSubagents | undefined): { web: Tool[]; subagents: Subagents | undefined } {
  const { opts } = self;
  // Built whether or not this run offers them (offered-tools.ts decides that), once, so their caches last the run.
  const web = opts.offer
    ? optInTools({
        env: process.env,
        allowedTools: opts.offer.allowedTools,
        settings: opts.settings,
        createModel: (id) => self.createModel(id),
        mainModel: () => self.model,
      })
    : [];
  // The Agent tool and its listing only where the one offer rule asks for Agent (offered-tools.ts).
  const subagents =
    opts.subagents && setup
      ? setup(opts.subagents, {
          cwd: opts.cwd,
          env: process.env,
          debug: opts.debug,
          deps: {
            createModel: (id) => self.createModel(id),
            log: opts.log,
            matches: (name, rule) => self.matchesRule(name, rule),
            excludes: (tool) => self.excludes(tool),
            server: (name) => self.route(name)?.server,
            ready: () => self.connected,
            recordUsage: (model, usage) => self.subagentMeter.record(model, usage),
            // Background agents, when this run has background work (background/agent-task.ts).
            startInBackground: (o) => self.backgroundWork?.startAgent(o),
            skill: (name) => self.skills?.find(name),
            configured: () => self.configured.map((s) => s.name),
            serverSandbox: opts.serverSandbox,
            cwd: opts.cwd,
            verbose: opts.verbose,
            debug: opts.debug,
          },
        })
      : undefined;
  return { web, subagents };
}
