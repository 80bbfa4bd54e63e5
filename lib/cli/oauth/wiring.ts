/**
 * `mcp login <server>` and `mcp logout <server>`, and the OAuth wiring every run shares: one token
 * store in the user's config folder, and a provider per remote server that can log in only when
 * the run allows it (`-p` never does; elsewhere a terminal or `$BROWSER` is needed).
 */
import type { LoginInteraction } from "../../mcp/auth/authorization-code.ts";
import type { OAuthConfig } from "../../mcp/auth/oauth-block.ts";
import { OAuthProvider } from "../../mcp/auth/oauth-provider.ts";
import { probeChallenge } from "../../mcp/auth/probe.ts";
import { defaultStorePath, TokenStore } from "../../mcp/auth/store.ts";
import { userConfigDir } from "../../shared/claude-home.ts";
import { loginInteraction } from "./browser-login.ts";

/** What OAuth needs of a remote server's config entry. */
export interface RemoteServer {
  name: string;
  url: string;
  headers?: Record<string, string>;
  oauth?: OAuthConfig;
}

export interface OAuthWiring {
  store: TokenStore;
  interaction?: LoginInteraction;
  /** The provider for a remote server; undefined when its static headers set Authorization (they win). */
  providerFor(server: RemoteServer): OAuthProvider | undefined;
}

/**
 * @param allowLogin false in `-p`: a server that needs a person is then reported, never waited for.
 * @param debug --debug lines (steps and URLs; never a token).
 */
export function oauthWiring(opts: { allowLogin: boolean; debug?: (line: string) => void; stderr?: (line: string) => void }): OAuthWiring {
  const store = new TokenStore(defaultStorePath(userConfigDir()), opts.stderr);
  const interaction = opts.allowLogin ? loginInteraction({ stderr: opts.stderr }) : undefined;
  const cache = new Map<string, OAuthProvider>();
  return {
    store,
    interaction,
    providerFor(server) {
      if (Object.keys(server.headers ?? {}).some((h) => h.toLowerCase() === "authorization")) return undefined;
      let provider = cache.get(server.name);
      if (!provider) {
        provider = new OAuthProvider({
          server: server.name,
          url: server.url,
          oauth: server.oauth ?? { grantType: "authorization_code" },
          store,
          interaction,
          debug: opts.debug,
        });
        cache.set(server.name, provider);
      }
      return provider;
    },
  };
}

/**
 * Logs in to `server` (the interactive `/mcp` offers this too). Resolves with the line to show.
 * @throws Error naming the step that failed (discovery, registration, the browser, the token request).
 */
export async function login(server: RemoteServer, wiring: OAuthWiring): Promise<string> {
  const provider = wiring.providerFor(server);
  if (!provider) return `MCP server "${server.name}" sends its own Authorization header: nothing to log in to`;
  const probe = await probeChallenge(server.url, server.headers);
  if (probe.status === "open" && server.oauth?.grantType !== "client_credentials") return `MCP server "${server.name}" does not ask for authentication`;
  await provider.login(probe.status === "challenge" ? probe.challenge : {});
  return `Logged in to MCP server "${server.name}"`;
}

/** Forgets `server`'s tokens and client registration. Resolves with the line to show. */
export async function logout(server: RemoteServer, wiring: OAuthWiring): Promise<string> {
  const provider = new OAuthProvider({ server: server.name, url: server.url, oauth: server.oauth ?? { grantType: "authorization_code" }, store: wiring.store });
  return (await provider.logout())
    ? `Logged out of MCP server "${server.name}" (its tokens and client registration are forgotten)`
    : `MCP server "${server.name}" had no saved login`;
}

/**
 * The interactive `/mcp` login: logs in to the remote server `name` of this run (the browser part
 * as `mcp login` does it), then reconnects it, so its tools are there for the next turn.
 * Resolves with the line to show.
 * @throws Error for an unknown or local server, or the step of the login that failed.
 */
export async function loginAndReconnect(
  runtime: { configured: readonly { name: string; type: string }[]; registry?: { reconnect(name: string): Promise<{ status: string; error?: string }> } },
  name: string,
  opts: { debug?: (line: string) => void; stderr?: (line: string) => void } = {},
): Promise<string> {
  const config = runtime.configured.find((s) => s.name === name);
  if (!config) throw new Error(`no MCP server named "${name}"`);
  if (config.type !== "http" && config.type !== "sse")
    throw new Error(`MCP server "${name}" is a local server: it gets credentials from its environment, not a login`);
  const wiring = oauthWiring({ allowLogin: true, ...opts });
  if (!wiring.interaction) throw new Error(`no terminal and no $BROWSER: cannot log in to "${name}" here`);
  const line = await login(config as unknown as RemoteServer, wiring);
  const state = await runtime.registry?.reconnect(name);
  return state && state.status !== "connected" ? `${line}, but it did not connect: ${state.error}` : line;
}
