/**
 * Token endpoint requests (OAuth 2.1 §4, through oauth4webapi): the authorization code exchange,
 * refresh (§4.3; a rotated refresh token replaces the old one, SA-28), client credentials (§4.2,
 * SEP-1046) and cross-app access (SEP-990: an RFC 8693 exchange of the user's ID token for an
 * ID-JAG at the identity provider, then the RFC 7523 jwt-bearer grant at the authorization
 * server). Every request carries `resource` (RFC 8707, SA-16).
 */
import * as oauth from "oauth4webapi";
import { clientAuthentication, describeOAuthError } from "./client-auth.ts";
import type { OAuthConfig } from "./oauth-block.ts";
import type { StoredClient, StoredTokens } from "./store.ts";
import { GrantRefusedError, UnknownClientError } from "./errors.ts";
import { requireSecureEndpoint } from "./urls.ts";

/**
 * Options every oauth4webapi request gets: our fetch, and http allowed because every URL was
 * checked by requireSecureEndpoint first. Typed `any`: oauth4webapi types each request's options
 * by method and body, and one shape serves them all.
 */
export function requestOptions(fetcher?: typeof fetch): any {
  return { [oauth.allowInsecureRequests]: true, ...(fetcher ? { [oauth.customFetch]: fetcher } : {}), signal: AbortSignal.timeout(30_000) };
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

async function run(what: string, as: oauth.AuthorizationServer, send: () => Promise<Response>, process: (r: Response) => Promise<oauth.TokenEndpointResponse>) {
  const res = await send();
  try {
    return await process(res);
  } catch (err) {
    const line = `${what} at ${as.token_endpoint} failed: ${describeOAuthError(err)}`;
    if (err instanceof oauth.ResponseBodyError && err.error === "invalid_grant") throw new GrantRefusedError(line);
    if (err instanceof oauth.ResponseBodyError && err.error === "invalid_client") throw new UnknownClientError(line);
    throw new Error(line);
  }
}

export interface GrantContext {
  as: oauth.AuthorizationServer;
  client: StoredClient;
  cfg: OAuthConfig;
  resource: string;
  fetcher?: typeof fetch;
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
        ...requestOptions(ctx.fetcher),
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
        ...requestOptions(ctx.fetcher),
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
    () => oauth.clientCredentialsGrantRequest(ctx.as, client, auth, params, requestOptions(ctx.fetcher)),
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
    () => oauth.genericTokenEndpointRequest(ctx.as, client, auth, JWT_BEARER, params, requestOptions(ctx.fetcher)),
    (r) => oauth.processGenericTokenEndpointResponse(ctx.as, client, r),
  );
  return storedTokens(token, ctx.as.issuer, params.scope);
}
