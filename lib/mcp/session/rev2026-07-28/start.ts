/**
 * The start of a 2026-07-28 session (MCP 2026-07-28, server/discover, basic/patterns/subscriptions):
 * what `server/discover` established, the request layer over the connection, and the
 * `subscriptions/listen` stream for the list changes the server announces.
 */
import type { ClientCapabilities, Implementation, ServerCapabilities } from "../../protocol/protocol.ts";
import { META } from "../envelope.ts";
import type { ClientFeatures } from "../features.ts";
import type { JsonRpcConnection } from "../jsonrpc.ts";
import { type Listener, listen, listenFilter } from "../listen.ts";
import { ModernSession } from "./session.ts";
import { isObject } from "../../../shared/values.ts";
import { withTasksExtension } from "../../protocol/tasks-extension.ts";

export interface ModernStart {
  modern: ModernSession;
  listener?: Listener;
  capabilities: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
}

export interface ModernStartOptions {
  conn: JsonRpcConnection;
  features: ClientFeatures;
  capabilities: ClientCapabilities;
  version: string;
  /** The `server/discover` result. */
  discover: Record<string, unknown>;
  server: string;
  peer: string;
  logLevel?: string;
  relistTools: () => Promise<void>;
  log?: (line: string) => void;
}

/** The session's parts; the listen stream is opened at once when the server announces list changes. */
export function startModern(o: ModernStartOptions): ModernStart {
  const found = o.discover;
  const capabilities: ServerCapabilities = isObject(found.capabilities) ? found.capabilities : {};
  // SEP-2663: the tasks extension is declared on each request, to a server that declared it only.
  const modern = new ModernSession({ ...o, capabilities: withTasksExtension(o.capabilities, capabilities) });
  // serverInfo is display only; servers put it in _meta (the schema) or at the top (older drafts).
  const meta = isObject(found._meta) ? found._meta : {};
  const info = meta[META.serverInfo] ?? found.serverInfo;
  const filter = listenFilter(capabilities);
  const listener = filter
    ? listen(
        filter,
        (params, signal) => modern.request("subscriptions/listen", params, { signal, peerMayEnd: true }),
        () => !o.conn.isClosed,
        o.log && ((line) => o.log?.(`${o.peer}: ${line}`)),
      )
    : undefined;
  return {
    modern,
    listener,
    capabilities,
    serverInfo: isObject(info) ? (info as Implementation) : undefined,
    instructions: typeof found.instructions === "string" ? found.instructions : undefined,
  };
}
