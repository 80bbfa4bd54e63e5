/**
 * The handshake of one MCP session (MCP 2025-11-25 basic/lifecycle#initialization, and the
 * 2026-07-28 revision's `server/discover`): the era is negotiated (negotiate.ts); a 2025 server's
 * answered protocolVersion is checked and `notifications/initialized` sent; a 2026-07-28 server
 * gets its request layer and `subscriptions/listen`. A failure is one line (startup-failure.ts).
 * What it established is handed to the client synchronously, before anything else can run.
 */
import { type ClientFeatures, declaredCapabilities } from "./features.ts";
import type { JsonRpcConnection } from "./jsonrpc.ts";
import { SUPPORTED_PROTOCOL_VERSIONS, initializeRequest, type Implementation, type InitializeResult, type ServerCapabilities } from "../protocol/protocol.ts";
import type { Transport } from "../transports/transport.ts";
import { startupFailure } from "./startup-failure.ts";
import { isObject } from "../../shared/values.ts";
import { type Era, type NegotiationPlan, negotiate, type Outcome } from "./negotiate.ts";
import type { ModernSession } from "./rev2026-07-28/session.ts";
import type { Listener } from "./listen.ts";

/** What the handshake established; `serverInfo` and `instructions` only when the server sent them. */
export interface SessionInfo {
  protocolVersion: string;
  /** "legacy" (an `initialize` session, 2025-11-25 and before) or "modern" (2026-07-28, per-request `_meta`). */
  era: Era;
  capabilities: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
}

/** The session, and in the 2026-07-28 era its request layer and its `subscriptions/listen`. */
export interface Established {
  info: SessionInfo;
  modern?: ModernSession;
  listener?: Listener;
}

export interface HandshakeContext {
  conn: JsonRpcConnection;
  transport: Transport;
  /** The server's name in the config, and how messages name it (`MCP server "db"`). */
  server: string;
  peer: string;
  features: ClientFeatures;
  /** Absent → `initialize` first, probe within a third of the connect timeout. */
  negotiation?: NegotiationPlan;
  logLevel?: string;
  log?: (line: string) => void;
  /** Why the transport ended, for a failure's line. */
  endReason: () => Promise<string>;
  /** The 2026-07-28 era: a tools list_changed heard on `subscriptions/listen` re-lists them. */
  relistTools: () => Promise<void>;
  /** Takes what was established, before `notifications/initialized` goes out. */
  adopt: (established: Established) => void;
}

/** @throws Error whose message is the reason alone, e.g. "exited with code 1 before the handshake". */
export async function handshake(ctx: HandshakeContext, timeoutMs: number): Promise<SessionInfo> {
  const capabilities = declaredCapabilities(ctx.features);
  const plan = ctx.negotiation ?? { discoverFirst: false, probeTimeoutMs: Math.ceil(timeoutMs / 3) };
  const { conn } = ctx;
  let outcome: Outcome;
  try {
    outcome = await negotiate(plan, {
      initialize: () => conn.requestFrame((id) => initializeRequest(id, capabilities), { timeoutMs, cancellable: false }),
      discover: async (version, probeMs) => {
        const { withEnvelope } = await import("./envelope.ts");
        return conn.request("server/discover", withEnvelope(undefined, { protocolVersion: version, capabilities }), { timeoutMs: probeMs, cancellable: false });
      },
      useEra: (era) => ctx.transport.setEra?.(era),
      alive: () => !conn.isClosed,
      note: (line) => ctx.log?.(`${ctx.peer}: negotiation: ${line}`),
    });
  } catch (error) {
    throw await startupFailure(error, timeoutMs, { conn, transport: ctx.transport, endReason: ctx.endReason });
  }
  return outcome.era === "legacy" ? legacySession(ctx, outcome.initialize) : modernSession(ctx, outcome, capabilities);
}

/** The 2025 handshake's end: the answered version checked, `notifications/initialized` sent. */
function legacySession(ctx: HandshakeContext, answer: unknown): SessionInfo {
  const result = (isObject(answer) ? answer : {}) as Partial<InitializeResult>;
  const version = result.protocolVersion;
  if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version)) {
    throw new Error(`answered initialize with unsupported protocolVersion ${JSON.stringify(version)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`);
  }
  ctx.transport.setProtocolVersion?.(version as string);
  const info: SessionInfo = {
    protocolVersion: version as string,
    era: "legacy",
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    serverInfo: isObject(result.serverInfo) ? (result.serverInfo as Implementation) : undefined,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
  ctx.adopt({ info });
  ctx.conn.notify("notifications/initialized");
  return info;
}

/** The 2026-07-28 era: capabilities from `server/discover`, then `subscriptions/listen` for the list changes it announces. */
async function modernSession(
  ctx: HandshakeContext,
  outcome: Extract<Outcome, { era: "modern" }>,
  capabilities: ReturnType<typeof declaredCapabilities>,
): Promise<SessionInfo> {
  const { startModern } = await import("./rev2026-07-28/start.ts");
  const started = startModern({
    conn: ctx.conn,
    features: ctx.features,
    capabilities,
    version: outcome.version,
    discover: outcome.discover,
    server: ctx.server,
    peer: ctx.peer,
    logLevel: ctx.logLevel,
    log: ctx.log,
    relistTools: ctx.relistTools,
  });
  const info: SessionInfo = {
    protocolVersion: outcome.version,
    era: "modern",
    capabilities: started.capabilities,
    serverInfo: started.serverInfo,
    instructions: started.instructions,
  };
  ctx.adopt({ info, modern: started.modern, listener: started.listener });
  return info;
}
