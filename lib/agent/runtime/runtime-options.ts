/** What the CLI hands the agent runtime (runtime.ts) for one run, and how it reports each MCP server. */
import type { ServerConfig } from "../../mcp/config/load.ts";
import type { ClientFeatures } from "../../mcp/session/features.ts";
import type { RegistryOptions } from "../../mcp/registry/registry.ts";
import type { SdkHost } from "../../mcp/transports/sdk.ts";
import type { SamplingConsent } from "../mcp/sampling.ts";
import { InputError } from "../input/input-shapes.ts";
import type { FolderSources } from "../skills/folders.ts";
import type { Skill } from "../skills/skill.ts";
import type { ToolContext } from "../../tools/tool.ts";
import type { SettingsHooks } from "../policy/turn-hooks.ts";
import type { OfferContext } from "../offered-tools.ts";
import type { SubagentOptions } from "../subagents/options.ts";
import type { RunSandbox } from "../sandboxing/run-sandbox.ts";
import type { ServerSandboxFor } from "../sandboxing/mcp-servers.ts";

/** `--mcp-config` values that give no servers at all (a missing file, invalid JSON): a usage error, found before anything starts. */
export class McpConfigFlagError extends InputError {
  constructor(readonly lines: string[]) {
    super(lines.join("; "));
  }
}

export interface RuntimeOptions {
  cwd: string;
  model: string;
  mcpConfig: string[];
  strictMcpConfig: boolean;
  disallowedTools: string[];
  /** --allowedTools, only for the warning about a scoped rule naming a tool we lack (the rules themselves are the settings engine's). */
  allowedTools?: string[];
  /** What the CLI says about subagents (`--agents`, the SDK's agents, the mode): subagents/setup.ts builds them when the offer rule asks for Agent. */
  subagents?: SubagentOptions;
  /** The run's settings files (lib/agent/settings): bare deny rules take tools off every request; turn.ts runs their rules and hooks. */
  settings?: SettingsHooks;
  /** The OS sandbox of the run (lib/agent/sandboxing), when the settings enable it and it could start. */
  sandbox?: RunSandbox;
  /** The OS sandbox each stdio MCP server runs in, by its entry (lib/agent/sandboxing/mcp-servers.ts). */
  serverSandbox?: ServerSandboxFor;
  /** What decides the agent's own tools on offer (offered-tools.ts); absent: the built-ins alone, as they are. */
  offer?: OfferContext;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  sampling: boolean;
  /** Prompt-caching breakpoints (false: --no-cache or DISABLE_PROMPT_CACHING). */
  cache: boolean;
  /** Keep large tool results' files after the run (sessions are persisted); else they are removed at shutdown. */
  keepToolResults?: boolean;
  /** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` as set (compact.ts reads it). */
  autoCompactPercent?: string;
  /** -p: past the tool-search threshold, defer the home's servers (user, local scope) before the project's. */
  projectToolsFirst?: boolean;
  /** `ENABLE_TOOL_SEARCH` as set (tool-search.ts reads it). */
  toolSearch?: string;
  verbose: boolean;
  debug: boolean;
  /** One diagnostic line to stderr. */
  log(line: string): void;
  /** How MCP servers' failures, stderr (--verbose) and traffic (--debug) reach a person; worded by the CLI. */
  mcpEvents: Pick<RegistryOptions, "onServerFailed" | "onStderrLine" | "onTrace">;
  /** Called just before `count` MCP servers start (the interactive start-up status line). */
  onMcpStart?(count: number): void;
  /** No key is not an error yet: only a model call would fail (print mode's built-in commands). */
  modelOptional?: boolean;
  /** Called as each server has connected or failed. */
  onMcpServerSettled?(server: ServerSummary): void;
  /** The OAuth provider of each remote server (lib/cli decides whether a login may run). */
  authFor?: RegistryOptions["authFor"];
  /** Servers the host program announced (stream-json `initialize`): they replace configured ones of the same name. */
  extraServers?: ServerConfig[];
  /** The host program's control channel, for `sdk` servers. */
  sdkHost?: SdkHost;
  /**
   * The project-scope (`.mcp.json`) servers about to start, enabled ones only; resolves with the
   * names the user has not approved (they are listed as disabled, not started). Absent: the
   * rule without a person (project-approval.ts): refused ones stay off, the others start.
   */
  approveProjectServers?(servers: ServerConfig[]): Promise<ReadonlySet<string>>;
  /**
   * The interactive session: `start` returns once servers are spawned, without waiting for their
   * handshakes; `connected` settles when every one has connected or failed (each within MCP_TIMEOUT).
   */
  background?: boolean;
  /** Asks the user before a server's sampling request reaches the model (the interactive session). */
  samplingConsent?: SamplingConsent;
  /**
   * Serves servers' `elicitation/create` and declares the capability (MCP 2025-11-25, client/elicitation):
   * the interactive session's form (form and URL mode), or a headless `--elicitation` policy (form only).
   * Absent: not declared, as `-p` and `mcp-init` require by default.
   */
  elicitation?: ClientFeatures["elicitation"];
  /** Which folders give skills (the Agent SDK's `settingSources`); default user and project. */
  skillSources?: FolderSources;
  /** Only these skills are offered (the Agent SDK's `skills` option); default all. */
  skills?: readonly string[];
  /**
   * Asked before a skill with `allowed-tools` loads through the Skill tool: undefined lets it,
   * a line is the error result (-p: no `Skill(<name>)` allow rule). Absent: it loads.
   */
  skillGate?(skill: Skill, ctx: ToolContext): Promise<string | undefined> | string | undefined;
}

export interface ServerSummary {
  name: string;
  /** "disabled": not started (`"disabled": true`, or a project server not approved); `error` says which. */
  status: "connected" | "failed" | "disabled";
  error?: string;
  /** Failed for want of a login this run could not do (`mcp login`, or the /mcp login). */
  needsAuth?: boolean;
}
