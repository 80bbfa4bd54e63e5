/**
 * A login with a person (MCP basic/authorization, "Client Registration Approaches" and the
 * authorization code flow): PKCE support checked first (SA-24/SA-25), then the client, in the
 * specification's order of preference (configured, client ID metadata document, dynamic
 * registration); a stored registration is reused only when it is this issuer's and knows this
 * redirect URI (SEP-2352), and a new one starts afresh: no tokens, a new DPoP key.
 */
import type * as oauth from "oauth4webapi";
import { authorizeWithCode, checkPkceSupport, type LoginInteraction } from "./authorization-code.ts";
import { configuredClient, metadataDocumentClient, registerClient } from "./client-auth.ts";
import type { OAuthConfig } from "./oauth-block.ts";
import type { Discovery, Fetch } from "./discovery.ts";
import { UnknownClientError } from "./errors.ts";
import { type GrantContext, requestOptions } from "./grants.ts";
import { AuthRequiredError } from "./provider.ts";
import type { StoredClient, StoredTokens, TokenStore } from "./store.ts";

/** Appended to a failed login whose endpoints were only guessed (discovery.ts `guessed`). */
export const NO_METADATA_HINT =
  'The server publishes no OAuth metadata, so the default endpoints of MCP 2025-03-26 were tried; if it takes a fixed token, set it in the entry\'s "headers" (e.g. "Authorization": "Bearer ${TOKEN}")';

/** What a login needs of its provider. */
export interface InteractiveLoginDeps {
  server: string;
  /** The store key: the canonical server URL. */
  key: string;
  oauth: OAuthConfig;
  store: TokenStore;
  interaction: LoginInteraction;
  fetch?: Fetch;
  debug?: (line: string) => void;
  grantContext(client: StoredClient, discovery: Discovery): Promise<GrantContext>;
  /** Deletes the issuer's DPoP key unless another server's login still uses it. */
  retireKey(issuer: string): Promise<void>;
}

/**
 * Runs the login; a dynamically registered client the server no longer knows is registered again, once.
 * @throws Error naming the step that failed (with NO_METADATA_HINT when the endpoints were guessed).
 */
export async function interactiveLogin(
  deps: InteractiveLoginDeps,
  discovery: Discovery,
  scopes: string[] | undefined,
): Promise<{ tokens: StoredTokens; client: StoredClient }> {
  const { oauth: cfg, server } = deps;
  const as = discovery.authorizationServer;
  // The 2025-03-26 defaults already assume S256 (that revision required PKCE).
  checkPkceSupport(as, cfg.assumeS256);
  const registered = deps.store.get(as.issuer, deps.key)?.client?.redirect_uris?.[0];
  const lastPort = registered ? Number(new URL(registered).port) || undefined : undefined;
  const pending = await deps.interaction.begin(server, cfg.callbackPort, lastPort);
  try {
    for (let again = false; ; again = true) {
      const client = configuredClient(cfg, as) ?? metadataDocumentClient(cfg, as) ?? (await registeredClient(deps, as, pending.redirectUri, again));
      try {
        const tokens = await authorizeWithCode(await deps.grantContext(client, discovery), pending, scopes);
        return { tokens, client };
      } catch (err) {
        if (!(err instanceof UnknownClientError) || client.kind !== "dcr" || again) throw err;
        deps.debug?.(`oauth ${server}: client ${client.client_id} unknown to the server; registering again`);
      }
    }
  } catch (err) {
    // Most often a server that wants a fixed token and has no OAuth at all: say how to give it one.
    if (!discovery.guessed || !(err instanceof Error) || err instanceof AuthRequiredError) throw err;
    throw new Error(`${err.message}. ${NO_METADATA_HINT}`, { cause: err });
  } finally {
    pending.close();
  }
}

/** The stored dynamic registration when it fits this issuer and redirect URI, else a new one. */
async function registeredClient(deps: InteractiveLoginDeps, as: oauth.AuthorizationServer, redirectUri: string, forceNew: boolean): Promise<StoredClient> {
  const stored = deps.store.get(as.issuer, deps.key)?.client;
  if (!forceNew && stored?.kind === "dcr" && stored.issuer === as.issuer && stored.redirect_uris?.includes(redirectUri)) return stored;
  const client = await registerClient(as, redirectUri, requestOptions(deps.fetch as typeof fetch));
  deps.debug?.(`oauth ${deps.server}: registered client ${client.client_id}`);
  // Nothing bound to the old registration carries over: its tokens go, and the DPoP key with them.
  await deps.store.update(as.issuer, deps.key, () => ({ client }));
  if (stored) await deps.retireKey(as.issuer);
  return client;
}
