/**
 * The registry's public shapes (registry.ts): its options and the read model, one frozen
 * `ServerSnapshot` per configured server.
 */
import type { ClientFeatures } from "../session/features.ts";
import type { ServerConfig } from "../config/load.ts";
import type { TransportContext } from "./transport-factory.ts";
import type { SdkHost } from "../transports/sdk.ts";
import type { Implementation, ListKind, McpPrompt, McpResource, McpResourceTemplate, McpTool, ServerCapabilities } from "../protocol/protocol.ts";
import type { McpSkillEntry } from "../protocol/skills.ts";

export interface RegistryOptions {
  /** Working directory for the servers. */
  cwd: string;
  /** What every server is offered (client/roots, client/sampling); default: the working directory as the one root. */
  features?: ClientFeatures;
  startupTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** One line for stderr: failures always; diagnostics and server stderr when `verbose`. */
  log: (line: string) => void;
  verbose?: boolean;
  /** Also log every JSON-RPC message in and out. */
  debug?: boolean;
  /** Shutdown grace before SIGTERM, in ms (see `StdioTransport.close`). */
  graceMs?: number;
  /** Told as each server finishes starting, connected or failed (a live start-up status). */
  onServerSettled?: (server: ServerSnapshot) => void;
  /** Told when a server failed to start or, once connected, ended; the snapshot has the reason and stderr tail. */
  onServerFailed?: (server: ServerSnapshot, phase: FailurePhase) => void;
  /** Every stderr line of a process server, as it arrives (asked for under --verbose). */
  onStderrLine?: (server: string, line: string) => void;
  /** Every JSON-RPC message in and out (asked for under --debug). */
  onTrace?: (server: string, direction: "send" | "receive", message: string) => void;
  /** Told when a server announces a changed list; `refresh()` then re-lists it. */
  onListChanged?: (server: string, kind: ListKind) => void;
  /** The host program's control channel, for `sdk` servers (stream-json input). */
  sdkHost?: SdkHost;
  /** The OAuth provider of a remote server (basic/authorization); none: static headers only. */
  authFor?: TransportContext["authFor"];
  /** The OS sandbox a stdio server runs in (lib/sandbox), by its entry; none: servers run as they are. */
  sandboxFor?: TransportContext["sandboxFor"];
}

/**
 * When a server failed: "start" (spawn, initialize), "handshake" (initialize worked, a list did
 * not: capabilities and instructions are kept), "exit" (it ended after connecting).
 */
export type FailurePhase = "start" | "handshake" | "exit";

/** How long a failed remote server is left alone before `refresh` probes it again, in ms. */
export const REPROBE_INTERVAL_MS = 60_000;

/** One server as the rest of the program reads it: a frozen copy, never the registry's own state. */
export type ServerSnapshot = Readonly<ServerState>;

/** The registry's own, mutable record of a server; others only ever see it frozen as `ServerSnapshot`. */
export interface ServerState {
  name: string;
  /**
   * "failed" when it could not start, or when it exited after starting; "disabled" when it was
   * not started: `"disabled": true` in its entry, or a project server the user did not approve.
   */
  status: "connected" | "failed" | "disabled";
  /** Why it failed ("exited with code 1 before the handshake"), or is disabled ("not approved", "by its entry"). */
  error?: string;
  /**
   * Once it ended after connecting: the number of the restart its next tool call makes (1-based,
   * at most RESTART_LIMIT in 5 minutes), or 0 when none is left; unset otherwise.
   */
  nextRestart?: number;
  /** It failed because it needs a login this run cannot do (`mcp login <name>`, or /mcp). */
  needsAuth?: boolean;
  config: ServerConfig;
  protocolVersion?: string;
  /** "legacy" (an `initialize` session) or "modern" (MCP 2026-07-28); set once connected. */
  era?: "legacy" | "modern";
  capabilities?: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
  tools: readonly McpTool[];
  prompts: readonly McpPrompt[];
  resources: readonly McpResource[];
  /** `resources/templates/list`, listed with the resources (and again when they change); none until then. */
  resourceTemplates?: readonly McpResourceTemplate[];
  /** `skills/list` of a server that declared the skills extension (SEP-2640); none otherwise. */
  skills?: readonly McpSkillEntry[];
  /** Last stderr lines, kept when the server failed. */
  stderr: readonly string[];
  /** Process id of the server (leader of its process group), once spawned. */
  pid?: number;
  /** When it was last started (ms since the epoch): a failed remote server is probed again at most once a minute. */
  probedAt?: number;
}
