/**
 * Listing one server's tools, prompts and resources into its registry record (MCP 2025-11-25,
 * server/tools, server/prompts, server/resources): only what it declared, `-32601` as "none",
 * the entry's tool filters applied.
 */
import type { McpClient } from "./client.ts";
import { McpError } from "./errors.ts";
import { ErrorCode, type ListKind, type McpTool } from "./protocol.ts";
import type { ServerState } from "./registry-types.ts";
import { toolAllowed, unmatchedFilters } from "./server-options.ts";
import { errorMessage } from "../shared/values.ts";

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
  let toolsFailed = false;
  const listers = { tools: () => client.listTools(request), prompts: () => client.listPrompts(request), resources: () => client.listResources(request) };
  await Promise.all(
    kinds.map(async (kind) => {
      client.dirty.delete(kind);
      if (!state.capabilities?.[kind]) return;
      try {
        const listed = await orNone<unknown>(listers[kind]());
        (state[kind] as readonly unknown[]) = Object.freeze(kind === "tools" ? filterTools(state, listed as McpTool[], opts) : listed);
      } catch (error) {
        if (opts.strict && kind === "tools") {
          toolsFailed = true;
          throw error;
        }
        // The server is being closed for its failed tools/list: the other lists' ends say nothing new.
        if (toolsFailed) return;
        opts.log(`MCP server "${state.name}": ${kind}/list failed: ${errorMessage(error)}`);
      }
    }),
  );
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
