/**
 * Starting one server's session for the registry (MCP 2025-11-25, basic/lifecycle, server/tools,
 * server/prompts, server/resources): the transport its entry names, the client over it, the
 * handshake, then its lists into its record: only what it declared, `-32601` as "none", the
 * entry's tool filters applied.
 */
import { AuthRequiredError } from "../auth/provider.ts";
import { McpClient } from "../session/client.ts";
import type { ServerConfig } from "../config/load.ts";
import type { ClientFeatures } from "../session/features.ts";
import type { RegistryOptions } from "./snapshot.ts";
import { openTransport } from "./transport-factory.ts";
import { McpError } from "../protocol/errors.ts";
import { ErrorCode, type ListKind, type McpTool } from "../protocol/protocol.ts";
import type { ServerState } from "./snapshot.ts";
import { declaresSkills, skillEntry, type McpSkillEntry } from "../protocol/skills.ts";
import { negotiationPlan } from "./negotiation-plan.ts";

/** A list request after a good `initialize` failed: reported as a failed handshake, not a failed start. */
export class HandshakeError extends Error {}

/** The AuthRequiredError behind `error` (transports and JSON-RPC wrap what they cannot send), if any. */
export function authRequired(error: unknown): AuthRequiredError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof AuthRequiredError) return e;
  return undefined;
}

/**
 * The transport for `config` (a stdio server is spawned before the first wait) and a client over
 * it, wired to the registry's callbacks; not yet connected.
 * @throws Error when the transport cannot start ("command not found: foo").
 */
export async function openSession(config: ServerConfig, opts: RegistryOptions, features: ClientFeatures): Promise<McpClient> {
  const { log, verbose, debug, onStderrLine, onTrace, onListChanged } = opts;
  const name = config.name;
  const transport = await openTransport(config, {
    cwd: opts.cwd,
    onStderrLine: onStderrLine && ((line) => onStderrLine(name, line)),
    log: verbose ? log : undefined,
    verbose,
    debug,
    authFor: opts.authFor,
    sdkHost: opts.sdkHost,
    sandboxFor: opts.sandboxFor,
  });
  return new McpClient(name, transport, {
    features,
    log: verbose ? log : undefined,
    warn: log,
    trace: onTrace && ((dir, message) => onTrace(name, dir, message)),
    onListChanged: onListChanged && ((kind) => onListChanged(name, kind)),
    negotiation: negotiationPlan(config, opts.cwd, opts.startupTimeoutMs),
    logLevel: verbose ? "info" : undefined,
  });
}

/**
 * `initialize` (what it established goes into `state`), then every list the server declared.
 * @throws the connect error, or HandshakeError when a list failed after a good `initialize`.
 */
export async function handshake(client: McpClient, state: ServerState, opts: ListOptions): Promise<void> {
  const init = await client.connect({ timeoutMs: opts.timeoutMs });
  Object.assign(state, init);
  const kinds: ListKind[] = ["tools", "prompts", "resources"];
  try {
    await listInto(
      client,
      state,
      kinds.filter((k) => init.capabilities[k]),
      opts,
    );
  } catch (error) {
    // A send failure reads `MCP server "x": cannot send tools/list: …`: said once, after our own prefix.
    const detail =
      error instanceof McpError
        ? `answered ${error.code} ${error.rpcMessage}`
        : errorMessage(error)
            .replace(`MCP server "${state.name}": `, "")
            .replace(/^cannot send tools\/list: /, "could not be sent: ");
    throw new HandshakeError(`failed the handshake: tools/list ${detail}`);
  }
  if (declaresSkills(init.capabilities)) await listSkillsInto(client, state, opts);
}

/** `skills/list` into `state.skills`; a failure is one line and leaves the server connected without skills. */
async function listSkillsInto(client: McpClient, state: ServerState, opts: ListOptions): Promise<void> {
  try {
    const listed = await orNone(client.listSkills({ timeoutMs: opts.timeoutMs }));
    state.skills = Object.freeze(listed.map(skillEntry).filter((e): e is McpSkillEntry => e !== undefined));
    const dropped = listed.length - state.skills.length;
    if (dropped) opts.log(`MCP server "${state.name}": ${dropped} skills/list entries skipped (no uri or frontmatter)`);
  } catch (error) {
    opts.log(`MCP server "${state.name}": skills/list failed: ${errorMessage(error)}`);
  }
}
import { toolAllowed, unmatchedFilters } from "../config/server-options.ts";
import { errorMessage } from "../../shared/values.ts";

export interface ListOptions {
  /** At start-up a failed tools/list fails the server; otherwise a failure is a warning and the old list stays. */
  strict: boolean;
  /** Each list request's timeout, in ms. */
  timeoutMs: number;
  log: (line: string) => void;
  /** Warnings already given, so each is given once per run. */
  warned: Set<string>;
}

/**
 * Lists `kinds` into `state`, clearing each dirty flag first so an announcement that arrives
 * meanwhile is not lost. Lists are frozen: snapshots share them.
 * @throws the tools/list error when `strict`.
 */
export async function listInto(client: McpClient, state: ServerState, kinds: ListKind[], opts: ListOptions): Promise<void> {
  const request = { timeoutMs: opts.timeoutMs };
  // Said only once every list has settled: a server failed for its tools/list says nothing more.
  const warnings: string[] = [];
  const listers = {
    tools: () => client.listTools(request),
    prompts: () => client.listPrompts(request),
    resources: async () => {
      // Templates come under the resources capability; their failure leaves the resources listed.
      const templates = orNone(client.listResourceTemplates(request)).catch((error) => {
        warnings.push(`MCP server "${state.name}": resources/templates/list failed: ${errorMessage(error)}`);
        return undefined;
      });
      const [resources, listed] = await Promise.all([client.listResources(request), templates]);
      if (listed) state.resourceTemplates = Object.freeze(listed);
      return resources;
    },
  };
  let toolsError: { error: unknown } | undefined;
  await Promise.all(
    kinds.map(async (kind) => {
      client.dirty.delete(kind);
      if (!state.capabilities?.[kind]) return;
      try {
        const listed = await orNone<unknown>(listers[kind]());
        (state[kind] as readonly unknown[]) = Object.freeze(kind === "tools" ? filterTools(state, listed as McpTool[], opts) : listed);
      } catch (error) {
        if (opts.strict && kind === "tools") toolsError = { error };
        else warnings.push(`MCP server "${state.name}": ${kind}/list failed: ${errorMessage(error)}`);
      }
    }),
  );
  if (toolsError) throw toolsError.error;
  for (const line of warnings) opts.log(line);
}

/** `includeTools`/`excludeTools` of the entry applied; a filter name that matches no tool is one warning. */
function filterTools(state: ServerState, tools: McpTool[], opts: ListOptions): McpTool[] {
  for (const { key, names } of unmatchedFilters(
    state.config,
    tools.map((t) => t.name),
  )) {
    const line = `MCP server "${state.name}": ${key} names no tool of the server: ${names.join(", ")}`;
    if (!opts.warned.has(line)) opts.log(line);
    opts.warned.add(line);
  }
  return tools.filter((t) => toolAllowed(state.config, t.name));
}

/** -32601 from an optional list means "none" (basic/lifecycle#capability-negotiation). */
export async function orNone<T>(listing: Promise<T[]>): Promise<T[]> {
  try {
    return await listing;
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
    throw error;
  }
}
