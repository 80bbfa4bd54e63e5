/**
 * A real authorization server for tests: `oidc-provider` on 127.0.0.1 (port 0), with dynamic
 * client registration, PKCE, resource indicators (RFC 8707) bound to one MCP server, refresh
 * tokens that rotate, and revocation. Its login and consent pages approve at once, granting the
 * scopes asked for, so a `$BROWSER` stand-in that keeps cookies and follows redirects
 * (oidc-browser.ts) completes a login like a person clicking "allow".
 * `bearerCheck` is the resource server's side: a token oidc-provider issued for the resource,
 * with the scopes a method needs, else 401/403 with the challenge MCP servers send; a DPoP-bound
 * token must come with the DPoP scheme and a valid proof (oidc-dpop.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { errors } from "oidc-provider";
import { checkDpopProof, type DpopRequirements } from "./oidc-dpop.ts";

export interface OidcServer {
  issuer: string;
  provider: Provider;
  /** Revokes a refresh token (a user signing the app out at the provider). */
  revokeRefreshToken(token: string): Promise<void>;
  /** Ends an access token early (the server-side expiry of a token our side still holds). */
  expireAccessToken(token: string): Promise<void>;
  close(): Promise<void>;
}

export interface OidcOptions {
  /** The MCP server's resource identifier (its canonical URL). */
  resource: string;
  /** Scopes the resource knows. */
  scopes: string[];
  /** DPoP-bound tokens (RFC 9449; oidc-provider's dPoP feature), with a nonce at the token endpoint when asked. Off: Bearer only. */
  dpop?: { requireNonce?: boolean };
}

export async function startOidc(opts: OidcOptions): Promise<OidcServer> {
  const http = createServer();
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [],
    cookies: { keys: ["test-only-cookie-key"] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      dPoP: opts.dpop ? { enabled: true, nonceSecret: Buffer.alloc(32, 7), requireNonce: () => Boolean(opts.dpop?.requireNonce) } : { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => opts.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== opts.resource) throw new errors.InvalidTarget();
          return { scope: opts.scopes.join(" "), accessTokenFormat: "opaque", accessTokenTTL: 3600 };
        },
      },
    },
    // Resource scopes belong to the resource (getResourceServerInfo); listing them here would make them OpenID scopes.
    scopes: ["openid", "offline_access"],
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });
  const callback = provider.callback();
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith("/interaction/")) approve(provider, opts.resource, req, res).catch((err) => res.writeHead(500).end(String(err)));
    else callback(req, res);
  });
  return {
    issuer,
    provider,
    async revokeRefreshToken(token: string) {
      await (await provider.RefreshToken.find(token))?.destroy();
    },
    async expireAccessToken(token: string) {
      await (await provider.AccessToken.find(token))?.destroy();
    },
    // Idle keep-alive connections (our own fetches) would hold close() until they time out.
    close: () =>
      new Promise<void>((r) => {
        http.close(() => r());
        http.closeAllConnections();
      }),
  };
}

/** The login and consent prompts, answered "yes, all of it". */
async function approve(provider: Provider, resource: string, req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (process.env.BROWSER_DEBUG) console.error("prompt", JSON.stringify(details.prompt), details.session);
  const params = details.params as Record<string, string>;
  const accountId = details.session?.accountId ?? "test-user";
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId: params.client_id }))
    : new provider.Grant({ accountId, clientId: params.client_id });
  const asked = (params.scope ?? "").split(" ").filter(Boolean);
  const oidcScopes = asked.filter((s): s is "openid" | "offline_access" => s === "openid" || s === "offline_access");
  if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(" ") as "openid");
  const resourceScopes = asked.filter((s) => !(oidcScopes as string[]).includes(s));
  if (resourceScopes.length) grant.addResourceScope(resource, resourceScopes.join(" "));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/**
 * The resource server's check for one request: undefined when the bearer token is live, issued for
 * `resource`, and holds `required` scopes; else the 401 (no or dead token) or 403
 * (insufficient_scope) response, with `resource_metadata` in the challenge.
 */
export async function bearerCheck(
  provider: Provider,
  req: Request,
  resource: string,
  resourceMetadata: string,
  required: string[],
  dpop?: DpopRequirements,
): Promise<Response | undefined> {
  const header = req.headers.get("authorization") ?? "";
  const [scheme = "", token = ""] = header.split(" ");
  const at = token ? await provider.AccessToken.find(token) : undefined;
  const audience = at && (Array.isArray(at.aud) ? at.aud : [at.aud]);
  const challenge = dpop ? "DPoP" : "Bearer";
  const refuse = (error: string, extra: Record<string, string> = {}) =>
    new Response(JSON.stringify({ error }), {
      status: 401,
      headers: { "content-type": "application/json", "www-authenticate": `${challenge} error="${error}", resource_metadata="${resourceMetadata}"`, ...extra },
    });
  if (!at || at.isExpired || !audience?.includes(resource)) return refuse("invalid_token");
  if (at.jkt || dpop) {
    if (scheme !== "DPoP" || !at.jkt || !dpop) return refuse("invalid_token");
    const verdict = await checkDpopProof(req, token, at.jkt, dpop);
    if (!verdict.ok) return refuse(verdict.error, verdict.error === "use_dpop_nonce" ? { "dpop-nonce": dpop.nonce! } : {});
  } else if (scheme !== "Bearer") return refuse("invalid_token");
  const granted = (at.scope ?? "").split(" ");
  if (!required.every((s) => granted.includes(s))) {
    return new Response(JSON.stringify({ error: "insufficient_scope" }), {
      status: 403,
      headers: {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="insufficient_scope", scope="${[...new Set([...granted, ...required])].filter((s) => s && s !== "offline_access").join(" ")}", resource_metadata="${resourceMetadata}"`,
      },
    });
  }
  return undefined;
}

/** The protected resource metadata a fixture serves for `resource`, pointing at `issuer`. */
export function resourceMetadata(resource: string, issuer: string, scopes: string[]): Response {
  return Response.json({ resource, authorization_servers: [issuer], scopes_supported: scopes });
}
