/**
 * Token endpoint requests (OAuth 2.1 §4, through oauth4webapi): the authorization code exchange,
 * refresh (§4.3; a rotated refresh token replaces the old one, SA-28), client credentials (§4.2,
 * SEP-1046) and cross-app access (SEP-990: an RFC 8693 exchange of the user's ID token for an
 * ID-JAG at the identity provider, then the RFC 7523 jwt-bearer grant at the authorization
 * server), and the workload-identity jwt-bearer grant (SEP-1933, RFC 7523 §2.1). Every request
 * carries `resource` (RFC 8707, SA-16) and, when the context has a DPoP handle, a DPoP proof
 * (RFC 9449 §5), sent once more with the server's nonce when it answers `use_dpop_nonce` (§8).
 */
import * as oauth from "oauth4webapi";
import { clientAuthentication, describeOAuthError } from "./client-auth.ts";
import type { OAuthConfig } from "./oauth-block.ts";
import type { StoredClient, StoredTokens } from "./store.ts";
import { FinalGrantError, GrantRefusedError, UnknownClientError } from "./errors.ts";
import { requireSecureEndpoint } from "./urls.ts";

/**
 * Options every oauth4webapi request gets: our fetch, and http allowed because every URL was
 * checked by requireSecureEndpoint first. Typed `any`: oauth4webapi types each request's options
 * by method and body, and one shape serves them all.
 */
export function requestOptions(fetcher?: typeof fetch, dpop?: oauth.DPoPHandle): any {
  return {
    [oauth.allowInsecureRequests]: true,
    ...(fetcher ? { [oauth.customFetch]: fetcher } : {}),
    ...(dpop ? { DPoP: dpop } : {}),
    signal: AbortSignal.timeout(30_000),
  };
}

function toClient(client: StoredClient): oauth.Client {
  return { client_id: client.client_id, ...(client.token_endpoint_auth_method ? { token_endpoint_auth_method: client.token_endpoint_auth_method } : {}) };
}

/** StoredTokens from a token response; `previous` keeps a refresh token the server did not rotate. */
export function storedTokens(res: oauth.TokenEndpointResponse, issuer: string, requestedScope: string | undefined, previous?: StoredTokens): StoredTokens {
  return {
    access_token: res.access_token,
    token_type: res.token_type,
    refresh_token: res.refresh_token ?? previous?.refresh_token,
    expires_at: typeof res.expires_in === "number" ? Date.now() + res.expires_in * 1000 : undefined,
    scope: res.scope ?? requestedScope ?? previous?.scope,
    issuer,
  };
}

/** Refusals of the workload-identity grant that no retry or other grant can mend (SEP-1933). */
const FINAL_WIF_ERRORS: ReadonlySet<string> = new Set(["invalid_grant", "invalid_scope", "unauthorized_client"]);

/**
 * Sends a token request (once more after a DPoP nonce challenge) and processes its response.
 * @param final error codes that become a FinalGrantError.
 */
async function run(
  what: string,
  as: oauth.AuthorizationServer,
  send: () => Promise<Response>,
  process: (r: Response) => Promise<oauth.TokenEndpointResponse>,
  final: ReadonlySet<string> = new Set(),
) {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    try {
      return await process(res);
    } catch (err) {
      // The handle kept the 400's DPoP-Nonce: the next proof carries it (RFC 9449 §8).
      if (attempt === 0 && oauth.isDPoPNonceError(err)) continue;
      const line = `${what} at ${as.token_endpoint} failed: ${describeOAuthError(err)}`;
      if (err instanceof oauth.ResponseBodyError && final.has(err.error)) throw new FinalGrantError(line);
      if (err instanceof oauth.ResponseBodyError && err.error === "invalid_grant") throw new GrantRefusedError(line);
      if (err instanceof oauth.ResponseBodyError && err.error === "invalid_client") throw new UnknownClientError(line);
      throw new Error(line);
    }
  }
}

export interface GrantContext {
  as: oauth.AuthorizationServer;
  client: StoredClient;
  cfg: OAuthConfig;
  resource: string;
  fetcher?: typeof fetch;
  /** Present when the authorization server offers DPoP: every token request then carries a proof. */
  dpop?: oauth.DPoPHandle;
}

function options(ctx: GrantContext): any {
  return requestOptions(ctx.fetcher, ctx.dpop);
}

/** Authorization code + PKCE exchange. @throws GrantRefusedError, UnknownClientError, Error. */
export async function exchangeCode(
  ctx: GrantContext,
  callback: URLSearchParams,
  redirectUri: string,
  verifier: string,
  scope: string | undefined,
): Promise<StoredTokens> {
  const auth = await clientAuthentication(ctx.client, ctx.cfg);
  const client = toClient(ctx.client);
  const res = await run(
    "token request",
    ctx.as,
    () =>
      oauth.authorizationCodeGrantRequest(ctx.as, client, auth, callback, redirectUri, verifier, {
        ...options(ctx),
        additionalParameters: { resource: ctx.resource },
      }),
    (r) => oauth.processAuthorizationCodeResponse(ctx.as, client, r),
  );
  return storedTokens(res, ctx.as.issuer, scope);
}

/** Refresh. @throws GrantRefusedError when the refresh token is spent or revoked. */
export async function refresh(ctx: GrantContext, tokens: StoredTokens): Promise<StoredTokens> {
  if (!tokens.refresh_token) throw new GrantRefusedError("no refresh token");
  const auth = await clientAuthentication(ctx.client, ctx.cfg);
  const client = toClient(ctx.client);
  const res = await run(
    "refresh",
    ctx.as,
    () =>
      oauth.refreshTokenGrantRequest(ctx.as, client, auth, tokens.refresh_token!, {
        ...options(ctx),
        additionalParameters: { resource: ctx.resource },
      }),
    (r) => oauth.processRefreshTokenResponse(ctx.as, client, r),
  );
  return storedTokens(res, ctx.as.issuer, undefined, tokens);
}

/** client_credentials with a secret or a private_key_jwt assertion (aud: the issuer). */
export async function clientCredentials(ctx: GrantContext, scopes: string[] | undefined): Promise<StoredTokens> {
  const auth = await clientAuthentication(ctx.client, ctx.cfg);
  const client = toClient(ctx.client);
  const params: Record<string, string> = { resource: ctx.resource };
  if (scopes?.length) params.scope = scopes.join(" ");
  const res = await run(
    "client_credentials request",
    ctx.as,
    () => oauth.clientCredentialsGrantRequest(ctx.as, client, auth, params, options(ctx)),
    (r) => oauth.processClientCredentialsResponse(ctx.as, client, r),
  );
  return storedTokens(res, ctx.as.issuer, params.scope);
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** SEP-990: ID token → ID-JAG at the identity provider, then ID-JAG → access token here. */
export async function crossAppAccess(ctx: GrantContext, scopes: string[] | undefined): Promise<StoredTokens> {
  const { cfg } = ctx;
  const idp = requireSecureEndpoint(cfg.idpTokenEndpoint!, '"oauth.idpTokenEndpoint"');
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: ctx.as.issuer,
    resource: ctx.resource,
    subject_token: cfg.idToken!,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    client_id: cfg.idpClientId!,
  });
  if (cfg.idpClientSecret) body.set("client_secret", cfg.idpClientSecret);
  if (scopes?.length) body.set("scope", scopes.join(" "));
  const res = await (ctx.fetcher ?? fetch)(idp.href, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok || typeof json.access_token !== "string") {
    const reason = typeof json.error === "string" ? `${json.error}${json.error_description ? `: ${json.error_description}` : ""}` : `HTTP ${res.status}`;
    throw new Error(`token exchange at ${idp.origin}${idp.pathname} failed: ${reason}`);
  }
  const auth = await clientAuthentication(ctx.client, ctx.cfg);
  const client = toClient(ctx.client);
  const params: Record<string, string> = { assertion: json.access_token, resource: ctx.resource };
  if (scopes?.length) params.scope = scopes.join(" ");
  const token = await run(
    "jwt-bearer request",
    ctx.as,
    () => oauth.genericTokenEndpointRequest(ctx.as, client, auth, JWT_BEARER, params, options(ctx)),
    (r) => oauth.processGenericTokenEndpointResponse(ctx.as, client, r),
  );
  return storedTokens(token, ctx.as.issuer, params.scope);
}

/**
 * Workload identity (SEP-1933): the workload's JWT, whose `aud` is this authorization server's
 * issuer, as the RFC 7523 assertion. The assertion is the caller's to fetch afresh each time; it
 * is sent in the body only, never logged.
 * @throws FinalGrantError for invalid_grant, invalid_scope or unauthorized_client (reported,
 *   never retried nor switched to another grant); Error otherwise.
 */
export async function jwtBearer(ctx: GrantContext, assertion: string, scopes: string[] | undefined): Promise<StoredTokens> {
  // Without a client id the assertion alone identifies the workload (RFC 7523 §3.1); oauth4webapi
  // still wants one, which the empty ClientAuth then leaves out of the request.
  const anonymous = !ctx.client.client_id;
  const auth: oauth.ClientAuth = anonymous ? () => {} : await clientAuthentication(ctx.client, ctx.cfg);
  const client = anonymous ? { client_id: "workload" } : toClient(ctx.client);
  const params: Record<string, string> = { assertion, resource: ctx.resource };
  if (scopes?.length) params.scope = scopes.join(" ");
  const token = await run(
    "workload-identity jwt-bearer request",
    ctx.as,
    () => oauth.genericTokenEndpointRequest(ctx.as, client, auth, JWT_BEARER, params, options(ctx)),
    (r) => oauth.processGenericTokenEndpointResponse(ctx.as, client, r),
    FINAL_WIF_ERRORS,
  );
  return storedTokens(token, ctx.as.issuer, params.scope);
}
