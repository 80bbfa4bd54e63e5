/**
 * The subagents of one run, assembled once at start-up when the one offer rule asks for the Agent
 * tool (offered-tools.ts, asked by the runtime): the agent types (load.ts) and the tool itself
 * (agent-tool.ts). Nothing is read from disk when the tool is not offered, so a -p run that did not
 * ask never sees the home's agents.
 */
import { AgentsOptionError, type SubagentOptions } from "./options.ts";
import type { NestedTool } from "../loop/loop-options.ts";
import { agentTool } from "./agent-tool.ts";
import { agentListing } from "./listing.ts";
import { AgentsFlagError, loadAgents } from "./load.ts";
import type { SubagentDeps } from "./run.ts";
import type { AgentDefinition } from "./types.ts";

export { AgentsOptionError, type SubagentOptions } from "./options.ts";

export interface Subagents {
  agents: readonly AgentDefinition[];
  tool: NestedTool;
  /** The listing text for a model with this window, or undefined with no agent. */
  listing(windowTokens: number | undefined): string | undefined;
}

/**
 * The run's subagents (call it only when the Agent tool is offered).
 * @throws AgentsOptionError for an `--agents` value that is not a JSON object (or a readable file of one).
 */
export function setupSubagents(
  o: SubagentOptions,
  run: { cwd: string; env: Record<string, string | undefined>; debug: boolean; deps: SubagentDeps },
): Subagents {
  let agents: AgentDefinition[];
  try {
    agents = loadAgents({
      cwd: run.cwd,
      env: run.env,
      flag: o.flag,
      fileAllowed: o.mode === "print",
      sdk: o.sdk,
      sources: o.sources,
      log: run.deps.log,
      debug: run.debug,
    });
  } catch (err) {
    if (err instanceof AgentsFlagError) throw new AgentsOptionError(err.message);
    throw err;
  }
  let warned = false;
  return {
    agents,
    tool: agentTool(() => agents, run.deps),
    listing: (window) =>
      agentListing(agents, window, (line) => {
        if (!warned) run.deps.log(line);
        warned = true;
      }),
  };
}
