/**
 * Opens the transport a config entry names by its `type` (MCP 2025-11-25, basic/transports).
 * stdio is imported eagerly (every local run needs it); other transports are to be imported
 * lazily inside their case, so a stdio-only run never loads their code.
 */
import type { HttpAuthProvider } from "../auth/provider.ts";
import type { HttpServerConfig, ServerConfig } from "../config/load.ts";
import type { Transport } from "../transports/transport.ts";
import { StdioTransport } from "../transports/stdio.ts";
import type { SdkHost } from "../transports/sdk.ts";
import type { CommandSandbox } from "../../sandbox/sandbox.ts";

/** What any transport may need from the run. */
export interface TransportContext {
  /** Working directory (stdio: the server process's cwd). */
  cwd: string;
  /** Every stderr line of a process server, as it arrives (shown under --verbose). */
  onStderrLine?: (line: string) => void;
  /** Diagnostics a transport wants a person to see under --verbose. */
  log?: (line: string) => void;
  verbose?: boolean;
  debug?: boolean;
  /** The host program's control channel (stream-json input), for `sdk` servers. */
  sdkHost?: SdkHost;
  /** The OAuth provider for a remote server, when one applies (basic/authorization); none → static headers only. */
  authFor?: (config: HttpServerConfig) => HttpAuthProvider | undefined | Promise<HttpAuthProvider | undefined>;
  /** The OS sandbox a stdio server runs in, by its entry; none: it runs as it is. */
  sandboxFor?: (config: ServerConfig) => CommandSandbox | undefined;
}

/** Transport notes name their server, like every other diagnostic line. */
function prefixed(name: string, log: ((line: string) => void) | undefined): ((line: string) => void) | undefined {
  return log && ((line) => log(`MCP server "${name}": ${line}`));
}

/**
 * The transport for `config`, started and ready for `initialize`. A stdio server is spawned
 * synchronously, before the returned promise is first awaited.
 * @throws Error naming why it cannot start (e.g. "command not found: foo").
 */
export async function openTransport(config: ServerConfig, ctx: TransportContext): Promise<Transport> {
  switch (config.type) {
    case "stdio":
      return StdioTransport.spawn(config, { cwd: ctx.cwd, onStderrLine: ctx.onStderrLine, sandbox: ctx.sandboxFor?.(config) });
    case "sdk": {
      if (!ctx.sdkHost) throw new Error('a "sdk" server lives in a host program: it needs --input-format stream-json');
      const { SdkTransport } = await import("../transports/sdk.ts");
      return new SdkTransport(config.name, ctx.sdkHost);
    }
    case "http": {
      const { HttpTransport } = await import("../transports/http.ts");
      const log = prefixed(config.name, ctx.log);
      return new HttpTransport({ url: config.url, headers: config.headers, auth: await ctx.authFor?.(config), log, debugLog: ctx.debug ? log : undefined });
    }
    case "sse": {
      const { LegacySseTransport } = await import("../transports/legacy-sse.ts");
      return new LegacySseTransport({ url: config.url, headers: config.headers, auth: await ctx.authFor?.(config), log: prefixed(config.name, ctx.log) });
    }
    default: {
      const unknown: never = config; // a new ServerConfig member without a case fails the type check here
      throw new Error(`transport not supported: ${JSON.stringify((unknown as ServerConfig).type)}`);
    }
  }
}
