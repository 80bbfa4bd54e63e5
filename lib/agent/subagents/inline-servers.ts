/**
 * An agent's own MCP servers (`mcpServers: [{name: {command, args, env}}]`): started when the agent
 * starts, shut down when it ends, in a registry of their own, so they never appear in the parent's
 * tool list. A name the run already has configured is the parent's server, shared (no second
 * process). A project agent's servers are repository code: they start only in a folder the user
 * trusted (settings/trust.ts), and otherwise one line says why. A server that fails is one stderr
 * line and a note the subagent reads; it never holds the parent up longer than
 * the MCP start-up timeout.
 */
import type { Tool } from "../../tools/tool.ts";
import { onShutdown } from "../lifecycle.ts";
import { workspaceTrusted, trustFile } from "../settings/workspace-trust.ts";
import { printable } from "./parse.ts";
import type { AgentDefinition } from "./types.ts";
import type { CommandSandbox } from "../../sandbox/sandbox.ts";

export interface InlineContext {
  cwd: string;
  log(line: string): void;
  verbose: boolean;
  debug: boolean;
  /** Names of the servers the run has configured (shared, never started again). */
  configured(): string[];
  env?: Record<string, string | undefined>;
  /** The run's choice of OS sandbox for a stdio server (sandboxing/mcp-servers.ts): inline servers get the same. */
  serverSandbox?: (config: { name: string; type?: string }) => CommandSandbox | undefined;
}

export interface InlineServers {
  tools: Tool[];
  /** Notes for the subagent: servers that did not start and why. */
  notes: string[];
  /** Configured server names the definition named inline (shared with the parent). */
  shared: string[];
  close(): Promise<void>;
}

const NONE: InlineServers = { tools: [], notes: [], shared: [], close: async () => {} };

/** Starts `def`'s inline servers; resolves once each has connected or failed. Never throws. */
export async function startInlineServers(def: AgentDefinition, c: InlineContext): Promise<InlineServers> {
  const inline = def.mcpServers?.inline ?? [];
  if (!inline.length) return NONE;
  const configured = new Set(c.configured());
  const shared = inline.filter((s) => configured.has(s.name)).map((s) => s.name);
  const own = inline.filter((s) => !configured.has(s.name));
  if (!own.length) return { ...NONE, shared };
  if (def.source === "project" && !workspaceTrusted(c.cwd, trustFile(c.env))) {
    const line = `agent "${def.name}": its MCP servers (${own.map((s) => printable(s.name)).join(", ")}) were not started: this folder is not trusted`;
    c.log(line);
    return { ...NONE, shared, notes: [line] };
  }
  const [{ loadMcpConfig }, { McpRegistry }, { readMcpEnv, timeouts }, { McpToolset }] = await Promise.all([
    import("../../mcp/config/load.ts"),
    import("../../mcp/registry/registry.ts"),
    import("../../mcp/config/env.ts"),
    import("../mcp/tools.ts"),
  ]);
  const notes: string[] = [];
  const json = JSON.stringify({ mcpServers: Object.fromEntries(own.map((s) => [s.name, s.config])) });
  const loaded = loadMcpConfig({ cwd: c.cwd, extra: [json], strict: true, userFile: null, env: c.env });
  for (const w of [...loaded.warnings, ...(loaded.unusableExtra ?? [])]) {
    const line = `agent "${def.name}": ${w}`;
    c.log(line);
    notes.push(line);
  }
  if (!loaded.servers.length) return { ...NONE, shared, notes };
  const registry = McpRegistry.open({
    cwd: c.cwd,
    ...timeouts(readMcpEnv(c.env)),
    log: c.log,
    verbose: c.verbose,
    debug: c.debug,
    sandboxFor: c.serverSandbox,
  });
  const unregister = onShutdown(() => registry.shutdown());
  await registry.connect(loaded.servers);
  for (const s of registry.snapshot()) {
    if (s.status === "connected") continue;
    const note = `MCP server "${printable(s.name)}" could not start: ${printable(s.error ?? "unknown error")}`;
    c.log(`agent "${def.name}": ${note}`);
    notes.push(note);
  }
  const toolset = new McpToolset(registry, { warn: c.log });
  return {
    tools: toolset.tools(),
    notes,
    shared,
    close: async () => {
      unregister();
      await registry.shutdown();
    },
  };
}
