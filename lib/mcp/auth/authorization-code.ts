/**
 * The browser part of a login (OAuth 2.1 §4.1 with PKCE S256, MCP 2025-11-25
 * basic/authorization): the authorization URL with `state`, `code_challenge`, `resource` and the
 * chosen `scope`; a person (or a `$BROWSER` stand-in) completes it; the callback's `state` is
 * checked before the code is exchanged. Who shows the URL and how the callback arrives is the
 * LoginInteraction's business (the CLI's), so this file never prints or spawns anything.
 */
import * as oauth from "oauth4webapi";
import { describeOAuthError } from "./client-auth.ts";
import { exchangeCode, type GrantContext } from "./grants.ts";
import type { StoredTokens } from "./store.ts";

/** One login in progress: its redirect URI exists (the loopback listener is up) before registration needs it. */
export interface PendingLogin {
  redirectUri: string;
  /**
   * Shows or opens `url` and resolves with the callback URL whose `state` is `state`
   * (callbacks with another state are discarded, SA-27).
   * @throws Error when the person gives up or the wait times out.
   */
  complete(url: URL, state: string): Promise<URL>;
  close(): void;
}

/** How a person completes logins here: absent in `-p` and wherever nobody could. */
export interface LoginInteraction {
  /**
   * @param port the configured `oauth.callbackPort` (in use: an error), else a free one is chosen.
   * @param preferredPort tried first when `port` is absent (the last registration's, so that a
   *   dynamically registered client keeps working); a free one when it is taken.
   */
  begin(server: string, port?: number, preferredPort?: number): Promise<PendingLogin>;
}

/**
 * SA-24/SA-25: S256 must be listed. Metadata without `code_challenge_methods_supported` is refused
 * unless `assumeS256` (the per-server override for providers that omit it).
 * @throws Error naming the issuer.
 */
export function checkPkceSupport(as: oauth.AuthorizationServer, assumeS256: boolean | undefined): void {
  const methods = as.code_challenge_methods_supported;
  if (methods === undefined) {
    if (assumeS256) return;
    throw new Error(
      `authorization server ${as.issuer} does not advertise PKCE (code_challenge_methods_supported); set "oauth": {"assumeS256": true} for this server if it supports S256`,
    );
  }
  if (!methods.includes("S256")) throw new Error(`authorization server ${as.issuer} does not support PKCE S256 (offers ${methods.join(", ") || "none"})`);
}

/**
 * Runs the browser part and the code exchange.
 * @throws GrantRefusedError / UnknownClientError from the token request; Error for a refused or
 *   mismatched callback (naming the server's `error`).
 */
export async function authorizeWithCode(ctx: GrantContext, pending: PendingLogin, scopes: string[] | undefined): Promise<StoredTokens> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(ctx.as.authorization_endpoint!);
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set("client_id", ctx.client.client_id);
  params.set("redirect_uri", pending.redirectUri);
  params.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  params.set("code_challenge_method", "S256");
  params.set("state", state);
  params.set("resource", ctx.resource);
  const scope = scopes?.length ? scopes.join(" ") : undefined;
  if (scope) params.set("scope", scope);
  const callback = await pending.complete(url, state);
  let validated: URLSearchParams;
  try {
    validated = oauth.validateAuthResponse(ctx.as, { client_id: ctx.client.client_id }, callback.searchParams, state);
  } catch (err) {
    throw new Error(`authorization refused: ${describeOAuthError(err)}`);
  }
  return exchangeCode(ctx, validated, pending.redirectUri, verifier, scope);
}
