/**
 * The grants nobody takes part in: client credentials (SEP-1046), cross-app access (SEP-990) and
 * workload identity (SEP-1933, the RFC 7523 jwt-bearer grant with the workload's own JWT). They
 * run when a server asks for a token, as often as it asks; each jwt-bearer request reads its
 * assertion afresh, and the token it gets is never kept past the assertion's `exp`.
 */
import type * as oauth from "oauth4webapi";
import { jwtExpiry, readAssertion } from "./assertion.ts";
import { configuredClient } from "./client-auth.ts";
import type { OAuthConfig } from "./oauth-block.ts";
import { clientCredentials, crossAppAccess, type GrantContext, jwtBearer } from "./grants.ts";
import type { StoredClient, StoredTokens } from "./store.ts";

/**
 * The client the grant presents: the configured one. A workload without `oauth.clientId`
 * authenticates by its assertion alone (RFC 7523 §3.1: client authentication is optional).
 */
export function unattendedClient(cfg: OAuthConfig, as: oauth.AuthorizationServer): StoredClient {
  return configuredClient(cfg, as) ?? { client_id: "", token_endpoint_auth_method: "none", kind: "configured", issuer: as.issuer };
}

/**
 * Runs the configured unattended grant.
 * @throws FinalGrantError (jwt-bearer refusals that no retry mends), Error naming the step.
 */
export async function unattendedGrant(ctx: GrantContext, scopes: string[] | undefined): Promise<StoredTokens> {
  switch (ctx.cfg.grantType) {
    case "client_credentials":
      return clientCredentials(ctx, scopes);
    case "cross_app_access":
      return crossAppAccess(ctx, scopes);
    default: {
      const assertion = await readAssertion(ctx.cfg);
      const tokens = await jwtBearer(ctx, assertion, scopes);
      const exp = jwtExpiry(assertion);
      if (exp !== undefined && (tokens.expires_at === undefined || tokens.expires_at > exp * 1000)) tokens.expires_at = exp * 1000;
      return tokens;
    }
  }
}
