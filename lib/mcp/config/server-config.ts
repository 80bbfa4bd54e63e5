/**
 * The shapes of MCP server entries once validated (Claude Code's `.mcp.json` and `~/.claude.json`
 * conventions): what every part of a run reads of a server's configuration.
 */
import type { OAuthConfig } from "../auth/oauth-block.ts";
import type { Scope } from "./scopes.ts";
import type { ServerOptions } from "./server-options.ts";

/** Where a server's winning entry came from, and the weaker entries of the same name it shadows. */
export interface ServerOrigin {
  /** "dynamic": `--mcp-config`. */
  scope: Scope | "dynamic";
  /** The file (absolute), or "--mcp-config" for inline JSON. */
  file: string;
  shadows?: { scope: Scope | "dynamic"; file: string }[];
}

/** What every entry has, whatever its transport. */
export interface ServerBase extends ServerOptions {
  name: string;
  /** Set by `loadMcpConfig`; absent for configs built in code. */
  origin?: ServerOrigin;
}

/** One stdio server to spawn (basic/transports#stdio). `env` is added to the inherited environment by the transport. */
export interface StdioServerConfig extends ServerBase {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The server's working directory (absolute, `cwd` of the entry resolved against the project); absent → the project. */
  cwd?: string;
  /** `command` and `args` as written, before `${VAR}` expansion: what to show a person (values may be secrets). */
  written?: { command: string; args: string[] };
}

/** A server inside the host program (the Agent SDK's `createSdkMcpServer`), reached over its control channel. */
export interface SdkServerConfig extends ServerBase {
  type: "sdk";
}

/**
 * One remote server (basic/transports): `http` is Streamable HTTP (with the legacy fallback), `sse`
 * the 2024-11-05 HTTP+SSE transport. `headers` go on every request to the server's origin.
 */
export interface HttpServerConfig extends ServerBase {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
  /** The entry's `oauth` block (basic/authorization): pre-registered client, callback port, scopes, grant. */
  oauth?: OAuthConfig;
  /** `url` and `headers` as written, before `${VAR}` expansion: what to show a person (values may be secrets). */
  written?: { url: string; headers: Record<string, string> };
}

/**
 * One configured server, discriminated by `type` (the transport). Each member has `name`; a new
 * transport adds a member here, a branch in `validateEntry` and a case in transports/factory.ts.
 */
export type ServerConfig = StdioServerConfig | HttpServerConfig | SdkServerConfig;
