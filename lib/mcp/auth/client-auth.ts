/**
 * Which client we are at the token endpoint, and how we prove it (MCP 2025-11-25
 * basic/authorization, "Client Registration Approaches", in its order of preference): a client
 * pre-registered in the config, a client ID metadata document when the server supports them, or
 * dynamic client registration (RFC 7591). Token endpoint authentication follows the client's
 * `token_endpoint_auth_method`: `client_secret_basic`, `client_secret_post`, `private_key_jwt`
 * or `none` (RFC 8414 §2 `token_endpoint_auth_methods_supported`).
 */
import { readFileSync } from "node:fs";
import * as oauth from "oauth4webapi";
import type { OAuthConfig } from "./oauth-block.ts";
import type { StoredClient } from "./store.ts";
import { errorMessage } from "../../shared/values.ts";

/** The product name we register with (`client_name`). */
export const CLIENT_NAME = "claude-code";

/** The method for a client with or without a secret, from what the server supports (its default is client_secret_basic). */
export function chooseAuthMethod(supported: unknown, hasSecret: boolean, hasKey = false): string {
  if (hasKey) return "private_key_jwt";
  if (!hasSecret) return "none";
  const list = Array.isArray(supported) ? supported : [];
  if (!list.length || list.includes("client_secret_basic")) return "client_secret_basic";
  if (list.includes("client_secret_post")) return "client_secret_post";
  return "client_secret_basic";
}

/** The client configured with `oauth.clientId`, or undefined. */
export function configuredClient(cfg: OAuthConfig, as: oauth.AuthorizationServer): StoredClient | undefined {
  if (!cfg.clientId) return undefined;
  const method = chooseAuthMethod(as.token_endpoint_auth_methods_supported, Boolean(cfg.clientSecret), Boolean(cfg.privateKey) && !cfg.clientSecret);
  return { client_id: cfg.clientId, client_secret: cfg.clientSecret, token_endpoint_auth_method: method, kind: "configured", issuer: as.issuer };
}

/** SA-14/SA-15: the metadata document's URL is the client id, when the server says it fetches them. */
export function metadataDocumentClient(cfg: OAuthConfig, as: oauth.AuthorizationServer): StoredClient | undefined {
  if (!cfg.clientMetadataUrl || as.client_id_metadata_document_supported !== true) return undefined;
  return { client_id: cfg.clientMetadataUrl, token_endpoint_auth_method: "none", kind: "cimd", issuer: as.issuer };
}

/**
 * RFC 7591 registration for `redirectUri`, asking for `authorization_code` and `refresh_token`.
 * @throws Error naming the registration endpoint and the server's error.
 */
export async function registerClient(
  as: oauth.AuthorizationServer,
  redirectUri: string,
  options: oauth.HttpRequestOptions<"POST", string>,
): Promise<StoredClient> {
  if (!as.registration_endpoint) {
    throw new Error(`authorization server ${as.issuer} offers no dynamic client registration: set "oauth": {"clientId": …} for this server`);
  }
  // A public client unless the server accepts none: then the one secret-based method it supports.
  const supported = as.token_endpoint_auth_methods_supported;
  const wantsSecret = Array.isArray(supported) && supported.length > 0 && !supported.includes("none");
  const method = wantsSecret ? chooseAuthMethod(supported, true) : "none";
  const res = await oauth.dynamicClientRegistrationRequest(
    as,
    {
      client_name: CLIENT_NAME,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A CLI with a loopback redirect is a native application (RFC 8252 §8.4; OIDC Registration §2).
      application_type: "native",
      token_endpoint_auth_method: method,
    },
    options,
  );
  // Parsed by hand: oauth4webapi insists on `client_secret_expires_at` beside a secret (RFC 7591
  // §3.2.1), which servers often leave out; only `client_id` matters here.
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!res.ok || typeof body?.client_id !== "string") {
    const reason = typeof body?.error === "string" ? `${body.error}${body.error_description ? `: ${body.error_description}` : ""}` : `HTTP ${res.status}`;
    throw new Error(`client registration at ${as.registration_endpoint} failed: ${reason}`);
  }
  const client = body as { client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown };
  const secret = typeof client.client_secret === "string" ? client.client_secret : undefined;
  return {
    client_id: client.client_id,
    client_secret: secret,
    token_endpoint_auth_method:
      typeof client.token_endpoint_auth_method === "string" ? client.token_endpoint_auth_method : secret ? chooseAuthMethod(supported, true) : "none",
    redirect_uris: [redirectUri],
    issuer: as.issuer,
    kind: "dcr",
  };
}

/** The oauth4webapi client authentication for `client`. @throws Error when a secret or key it needs is missing. */
export async function clientAuthentication(client: StoredClient, cfg: OAuthConfig): Promise<oauth.ClientAuth> {
  switch (client.token_endpoint_auth_method) {
    case "client_secret_basic":
    case "client_secret_post": {
      if (!client.client_secret) throw new Error(`client ${client.client_id} needs a client secret for ${client.token_endpoint_auth_method}`);
      return client.token_endpoint_auth_method === "client_secret_basic" ? secretBasic(client.client_secret) : oauth.ClientSecretPost(client.client_secret);
    }
    case "private_key_jwt":
      if (!cfg.privateKey) throw new Error('private_key_jwt needs "oauth.privateKey"');
      return oauth.PrivateKeyJwt(await importPrivateKey(cfg.privateKey, cfg.signingAlgorithm ?? "ES256"));
    default:
      return oauth.None();
  }
}

/**
 * client_secret_basic (RFC 6749 §2.3.1) with encodeURIComponent: oauth4webapi's stricter
 * form-encoding also escapes `-`, `.`, `_` and `~`, which servers that skip the decoding step
 * (the spec asks for it, many omit it) then fail to match.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, body, headers) => {
    body.delete("client_id");
    headers.set("authorization", `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`)}`);
  };
}

const ALGORITHMS: Record<string, { name: string; namedCurve?: string; hash?: string }> = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  ES384: { name: "ECDSA", namedCurve: "P-384" },
  ES512: { name: "ECDSA", namedCurve: "P-521" },
  RS256: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  PS256: { name: "RSA-PSS", hash: "SHA-256" },
};

/**
 * A PKCS#8 PEM (the string itself, or the path of a file holding it) as a signing key.
 * @throws Error naming the algorithm or the file, never the key.
 */
export async function importPrivateKey(pemOrPath: string, algorithm: string): Promise<CryptoKey> {
  const params = ALGORITHMS[algorithm];
  if (!params) throw new Error(`"oauth.signingAlgorithm" ${algorithm} is not supported (${Object.keys(ALGORITHMS).join(", ")})`);
  let pem = pemOrPath;
  if (!pem.includes("-----BEGIN")) {
    try {
      pem = readFileSync(pemOrPath, "utf8");
    } catch (err) {
      throw new Error(`cannot read "oauth.privateKey" file ${pemOrPath}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  const body = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, "");
  try {
    return await crypto.subtle.importKey("pkcs8", Buffer.from(body, "base64"), params, false, ["sign"]);
  } catch {
    throw new Error(`"oauth.privateKey" is not a PKCS#8 ${algorithm} private key`);
  }
}

/** One line for an oauth4webapi error: the server's `error` and `error_description` when it sent them. */
export function describeOAuthError(err: unknown): string {
  if (err instanceof oauth.ResponseBodyError) return `${err.error}${err.error_description ? `: ${err.error_description}` : ""} (HTTP ${err.status})`;
  if (err instanceof oauth.AuthorizationResponseError) return `${err.error}${err.error_description ? `: ${err.error_description}` : ""}`;
  if (err instanceof oauth.WWWAuthenticateChallengeError) return `HTTP ${err.status}, ${err.cause.map((c) => c.parameters.error ?? c.scheme).join(", ")}`;
  return errorMessage(err);
}
