/**
 * A run's MCP servers: which are configured and approved, and starting them (the registry, loaded lazily so a run without servers never loads
 * the client): the client's features (roots of the working folder, sampling through the run's
 * current model, elicitation as the mode serves it), each server's outcome reported as it settles,
 * and shutdown registered before any server is spawned, so a signal during start-up still stops them.
 */
import { loadMcpConfig, type ServerConfig } from "../../mcp/config/load.ts";
import type { McpRegistry } from "../../mcp/registry/registry.ts";
import { McpConfigFlagError, type RuntimeOptions } from "../runtime/runtime-options.ts";
import type { ModelClient } from "../model/model.ts";
import { onShutdown } from "../lifecycle.ts";
import { samplingHandler } from "./sampling.ts";
import { SamplingBudget } from "./sampling-budget.ts";
import type { McpToolset } from "./tools.ts";

export interface StartedServers {
  registry: McpRegistry;
  tools: McpToolset;
  /** Settles when every server has connected or failed. */
  connecting: Promise<void>;
}

export interface ServerHooks {
  /** The model servers' sampling requests use, read at each request (/model switches it). */
  model(): ModelClient;
  /** A server connected or failed. */
  settled(name: string): void;
}

/**
 * The run's servers: the config files and --mcp-config (the host program's own replacing those of
 * the same name), each unusable entry logged, and the project's servers the user has not approved
 * (asked before anything starts: a cloned repository's servers may not run by surprise).
 * @throws McpConfigFlagError when an `--mcp-config` value gives no servers.
 */
export async function configuredServers(opts: RuntimeOptions): Promise<{ servers: ServerConfig[]; notApproved: ReadonlySet<string>; problems: number }> {
  const loaded = loadMcpConfig({ cwd: opts.cwd, extra: opts.mcpConfig, strict: opts.strictMcpConfig });
  if (loaded.unusableExtra) throw new McpConfigFlagError(loaded.unusableExtra);
  for (const w of loaded.warnings) opts.log(w);
  const extra = opts.extraServers ?? [];
  const servers = [...loaded.servers.filter((s) => !extra.some((e) => e.name === s.name)), ...extra];
  const project = servers.filter((s) => s.origin?.scope === "project" && !s.disabled);
  let notApproved: ReadonlySet<string> = new Set<string>();
  if (project.length) {
    const { unapprovedWithoutAsking } = await import("../project-approval.ts");
    notApproved = await (opts.approveProjectServers?.(project) ?? unapprovedWithoutAsking(project, opts.cwd));
  }
  return { servers, notApproved, problems: loaded.warnings.length };
}

/** Spawns `servers` but those `notApproved` (listed as disabled); their handshakes go on in `connecting`. */
export async function startServers(
  opts: RuntimeOptions,
  servers: ServerConfig[],
  notApproved: ReadonlySet<string>,
  hooks: ServerHooks,
): Promise<StartedServers> {
  const [{ McpRegistry }, { readMcpEnv, timeouts }, { workingDirectoryRoots }, { McpToolset }] = await Promise.all([
    import("../../mcp/registry/registry.ts"),
    import("../../mcp/config/env.ts"),
    import("../../mcp/session/features.ts"),
    import("./tools.ts"),
  ]);
  const registry = McpRegistry.open({
    cwd: opts.cwd,
    ...timeouts(readMcpEnv()),
    log: opts.log,
    ...opts.mcpEvents,
    verbose: opts.verbose,
    debug: opts.debug,
    sdkHost: opts.sdkHost,
    features: {
      roots: workingDirectoryRoots(opts.cwd),
      // Each server's requests draw on one budget, so a hostile server cannot spend the user's API money at will.
      sampling: opts.sampling ? samplingHandler(hooks.model, opts.log, opts.samplingConsent, new SamplingBudget(readMcpEnv().sampling, opts.log)) : undefined,
      elicitation: opts.elicitation,
    },
    onServerSettled: (s) => {
      hooks.settled(s.name);
      opts.onMcpServerSettled?.({ name: s.name, status: s.status, error: s.error });
    },
    authFor: opts.authFor,
    sandboxFor: opts.serverSandbox,
  });
  const tools = new McpToolset(registry, { warn: opts.log });
  onShutdown(() => registry.shutdown());
  // Servers are spawned inside connect() before it first waits.
  return { registry, tools, connecting: registry.connect(servers, notApproved) };
}
