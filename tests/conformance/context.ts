/**
 * The conformance suite's per-scenario context (`MCP_CONFORMANCE_CONTEXT`, JSON) mapped to the
 * `.mcp.json` entry a user would write for that server: one place, used by every client driver.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The suite's CIMD scenarios expect this URL as the client id. */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

export interface ConformanceEntry {
  type: "http";
  url: string;
  oauth: Record<string, unknown>;
}

export function entryFor(url: string, contextJson: string | undefined): ConformanceEntry {
  const ctx = contextJson ? (JSON.parse(contextJson) as Record<string, string>) : {};
  const oauth: Record<string, unknown> = { clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL };
  switch (ctx.name) {
    case "auth/pre-registration":
      Object.assign(oauth, { clientId: ctx.client_id, clientSecret: ctx.client_secret });
      break;
    case "auth/client-credentials-basic":
      Object.assign(oauth, { grantType: "client_credentials", clientId: ctx.client_id, clientSecret: ctx.client_secret });
      break;
    case "auth/client-credentials-jwt":
      Object.assign(oauth, {
        grantType: "client_credentials",
        clientId: ctx.client_id,
        privateKey: ctx.private_key_pem,
        signingAlgorithm: ctx.signing_algorithm ?? "ES256",
      });
      break;
    case "auth/cross-app-access-complete-flow":
    case "auth/enterprise-managed-authorization": // its name in conformance 0.2
      Object.assign(oauth, {
        grantType: "cross_app_access",
        clientId: ctx.client_id,
        clientSecret: ctx.client_secret,
        idpTokenEndpoint: ctx.idp_token_endpoint,
        idpClientId: ctx.idp_client_id,
        idToken: ctx.idp_id_token,
      });
      break;
    case "auth/wif-jwt-bearer": {
      // Where a workload finds its token (a projected service-account token, say): a file.
      const file = join(mkdtempSync(join(tmpdir(), "conformance-wif-")), "token.jwt");
      writeFileSync(file, ctx.valid_jwt!, { mode: 0o600 });
      Object.assign(oauth, { grantType: "jwt_bearer", clientId: ctx.client_id, assertionFile: file });
      break;
    }
  }
  return { type: "http", url, oauth };
}
