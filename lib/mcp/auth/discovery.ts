/**
 * Finding a server's authorization server (MCP 2025-11-25 basic/authorization, "Authorization
 * Server Discovery"): protected resource metadata (RFC 9728) from the challenge's
 * `resource_metadata` or the well-known URLs, then the authorization server's metadata (RFC 8414
 * and OpenID Connect Discovery 1.0, in the order the MCP specification gives). Servers on the
 * 2025-03-26 revision have no resource metadata: their origin is the authorization server, with
 * the default endpoints when it publishes no metadata either.
 */
import type { AuthorizationServer } from "oauth4webapi";
import { canonicalResource, requireSecureEndpoint, resourceCovers } from "./urls.ts";
import { isObject } from "../../shared/values.ts";

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  [key: string]: unknown;
}

export interface Discovery {
  /** The `resource` parameter for authorization and token requests (RFC 8707). */
  resource: string;
  /** Undefined for a 2025-03-26 server. */
  protectedResource?: ProtectedResourceMetadata;
  /** The authorization server's metadata (or the 2025-03-26 defaults). */
  authorizationServer: AuthorizationServer;
  /** Where the metadata came from, for --debug. */
  source: string;
  /** The server publishes no metadata at all: the endpoints are the 2025-03-26 defaults, a guess. */
  guessed?: true;
}

/** The protected resource metadata names another resource: the flow stops before any authorization request. */
export class ResourceMismatchError extends Error {
  override name = "ResourceMismatchError";
}

export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

const TIMEOUT_MS = 10_000;

async function getJson(fetcher: Fetch, url: string): Promise<{ status: number; body?: Record<string, unknown> }> {
  const res = await fetcher(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "follow" });
  if (!res.ok) {
    await res.body?.cancel();
    return { status: res.status };
  }
  try {
    const body = (await res.json()) as unknown;
    if (isObject(body)) return { status: res.status, body: body as Record<string, unknown> };
  } catch {}
  return { status: -1 };
}

/** RFC 9728 §3.1 well-known URLs: path-aware first (when the server URL has a path), then the root. */
export function protectedResourceUrls(serverUrl: string): string[] {
  const u = new URL(serverUrl);
  const path = u.pathname.replace(/\/$/, "");
  const root = `${u.origin}/.well-known/oauth-protected-resource`;
  return path ? [root + path, root] : [root];
}

/** SA-08/SA-09: for an issuer with a path, RFC 8414 path insertion, OIDC path insertion, OIDC appended, then the root. */
export function authorizationServerUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, "");
  if (!path) return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  return [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}/.well-known/openid-configuration${path}`,
    `${u.origin}${path}/.well-known/openid-configuration`,
    `${u.origin}/.well-known/oauth-authorization-server`,
  ];
}

/** Issuers compare as URLs, so `https://as` and `https://as/` are one issuer (RFC 3986 §6.2.3). */
function sameIssuer(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/**
 * Runs discovery for `serverUrl`.
 * @param resourceMetadataUrl the challenge's `resource_metadata`, fetched exactly when given (SA-05).
 * @throws ResourceMismatchError when the metadata's `resource` does not cover the server;
 *   Error naming the URL when an issuer does not match its metadata, an endpoint is not https
 *   (outside loopback), or no authorization server can be found.
 */
export async function discover(serverUrl: string, resourceMetadataUrl: string | undefined, fetcher: Fetch = fetch): Promise<Discovery> {
  const candidates = resourceMetadataUrl ? [resourceMetadataUrl] : protectedResourceUrls(serverUrl);
  let prm: ProtectedResourceMetadata | undefined;
  let prmUrl = "";
  for (const url of candidates) {
    const got = await getJson(fetcher, url);
    if (got.body) {
      prm = got.body as ProtectedResourceMetadata;
      prmUrl = url;
      break;
    }
  }
  if (!prm) {
    if (resourceMetadataUrl) throw new Error(`protected resource metadata not found at ${resourceMetadataUrl}`);
    return legacyDiscovery(serverUrl, fetcher);
  }
  if (typeof prm.resource !== "string") throw new Error(`protected resource metadata at ${prmUrl} has no "resource"`);
  if (!resourceCovers(prm.resource, serverUrl)) {
    throw new ResourceMismatchError(
      `protected resource metadata names resource ${prm.resource}, not this server (${canonicalResource(serverUrl)}): authorization refused`,
    );
  }
  const issuer = prm.authorization_servers?.find((s) => typeof s === "string");
  if (!issuer) throw new Error(`protected resource metadata at ${prmUrl} lists no authorization_servers`);
  requireSecureEndpoint(issuer, "authorization server");
  const authorizationServer = await authorizationServerMetadata(issuer, fetcher);
  return { resource: canonicalResource(prm.resource), protectedResource: prm, authorizationServer, source: `${prmUrl} → ${issuer}` };
}

/**
 * The first metadata document whose `issuer` is `issuer` (RFC 8414 §3.3).
 * @throws Error when none is found, naming the issuer (and a mismatching issuer when one was seen).
 */
export async function authorizationServerMetadata(issuer: string, fetcher: Fetch = fetch): Promise<AuthorizationServer> {
  let mismatch = "";
  for (const url of authorizationServerUrls(issuer)) {
    const got = await getJson(fetcher, url);
    if (!got.body) continue;
    if (typeof got.body.issuer !== "string" || !sameIssuer(got.body.issuer, issuer)) {
      mismatch = ` (${url} names issuer ${JSON.stringify(got.body.issuer)})`;
      continue;
    }
    return checkEndpoints(got.body as unknown as AuthorizationServer);
  }
  throw new Error(`no authorization server metadata for ${issuer}${mismatch}`);
}

/**
 * 2025-03-26 basic/authorization §2.3: the authorization base URL is the server's origin; its
 * RFC 8414 metadata, else `/authorize`, `/token` and `/register` there. That revision bound no
 * issuer to the server, so the metadata's `issuer` is not compared; PKCE was already required.
 */
async function legacyDiscovery(serverUrl: string, fetcher: Fetch): Promise<Discovery> {
  const origin = new URL(serverUrl).origin;
  const resource = canonicalResource(serverUrl);
  const url = `${origin}/.well-known/oauth-authorization-server`;
  const got = await getJson(fetcher, url);
  if (got.body && typeof got.body.authorization_endpoint === "string" && typeof got.body.token_endpoint === "string") {
    const meta = { issuer: origin, ...got.body } as AuthorizationServer;
    return { resource, authorizationServer: checkEndpoints(meta), source: `${url} (2025-03-26)` };
  }
  const defaults: AuthorizationServer = {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ["S256"],
  };
  return { resource, authorizationServer: checkEndpoints(defaults), source: `${origin} default endpoints (2025-03-26)`, guessed: true };
}

function checkEndpoints(as: AuthorizationServer): AuthorizationServer {
  for (const key of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
    const value = as[key];
    if (value !== undefined) requireSecureEndpoint(String(value), `authorization server's ${key}`);
  }
  return as;
}
