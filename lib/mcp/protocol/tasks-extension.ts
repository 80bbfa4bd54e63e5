/**
 * The declaration of the tasks extension of MCP 2026-07-28 (SEP-2663 §Capability Negotiation,
 * `io.modelcontextprotocol/tasks`): the server names it in `server/discover` capabilities, the
 * client in each request's `clientCapabilities.extensions`. Here, below the session, because the
 * session's envelope carries it; following the tasks is tasks/rev2026-07-28/follow.ts. Pure.
 */
import type { ClientCapabilities, ServerCapabilities } from "./protocol.ts";
import { isObject } from "../../shared/values.ts";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The server declared the extension in its `server/discover` capabilities (TK-07). */
export function serverDeclaresTasks(capabilities: ServerCapabilities | undefined): boolean {
  const extensions = capabilities?.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/**
 * The per-request client capabilities with the extension declared, only for a server that
 * declared it: every other server sees exactly the frames it saw before.
 */
export function withTasksExtension(client: ClientCapabilities, server: ServerCapabilities | undefined): ClientCapabilities {
  if (!serverDeclaresTasks(server)) return client;
  const own = isObject(client.extensions) ? client.extensions : {};
  return { ...client, extensions: { ...own, [TASKS_EXTENSION]: {} } };
}

/** The client's capabilities declare the extension (it may then take a CreateTaskResult, TK-07). */
export function clientDeclaresTasks(capabilities: ClientCapabilities): boolean {
  return isObject(capabilities.extensions) && isObject(capabilities.extensions[TASKS_EXTENSION]);
}
