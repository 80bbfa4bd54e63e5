/**
 * The `oauth` block of a remote server's config entry (`.mcp.json`, `--mcp-config`), validated
 * with one clear reason per problem. Every string takes `${VAR}` (expanded by the caller's
 * `expand`); secrets are kept as given and never printed.
 */

export type GrantType = "authorization_code" | "client_credentials" | "cross_app_access" | "jwt_bearer";

export interface OAuthConfig {
  /** A pre-registered client (MCP 2025-11-25 basic/authorization, "Preregistration"). */
  clientId?: string;
  clientSecret?: string;
  /** A client ID metadata document's https URL, used when the server supports them. */
  clientMetadataUrl?: string;
  /** The loopback callback port; without it a free one is chosen per login. */
  callbackPort?: number;
  /** Replaces the scope choice (challenge → resource metadata → none). */
  scopes?: string[];
  grantType: GrantType;
  /** For `private_key_jwt`: a PEM (PKCS#8) string or the path of a file holding one. */
  privateKey?: string;
  /** JWS algorithm of the client assertion; ES256 unless set. */
  signingAlgorithm?: string;
  /**
   * SA-25 says to refuse an authorization server whose metadata omits
   * `code_challenge_methods_supported`; real providers that do support S256 often omit it.
   */
  assumeS256?: boolean;
  /** Cross-app access (ID-JAG): the identity provider's token endpoint, its client id and the user's ID token. */
  idpTokenEndpoint?: string;
  idpClientId?: string;
  idpClientSecret?: string;
  idToken?: string;
  /**
   * Workload identity (`grantType` jwt_bearer, SEP-1933): the file holding the workload's JWT,
   * re-read for each token request, or a shell command that prints it (run with a timeout; a
   * project's `.mcp.json` entry that has one is approved like a server command).
   */
  assertionFile?: string;
  assertionCommand?: string;
}

const STRINGS = [
  "clientId",
  "clientSecret",
  "clientMetadataUrl",
  "privateKey",
  "signingAlgorithm",
  "idpTokenEndpoint",
  "idpClientId",
  "idpClientSecret",
  "idToken",
  "assertionFile",
  "assertionCommand",
] as const;
const KNOWN = new Set<string>([...STRINGS, "callbackPort", "scopes", "grantType", "assumeS256"]);
const GRANTS: GrantType[] = ["authorization_code", "client_credentials", "cross_app_access", "jwt_bearer"];

/**
 * Validates `value` (the entry's `oauth`). Returns the config, or a one-line reason naming the
 * field (`"oauth.callbackPort" must be …`). Unknown fields are refused so that a typo is not
 * silently a different login.
 */
export function parseOAuthConfig(value: unknown, expand: (s: string) => string = (s) => s): OAuthConfig | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return '"oauth" must be an object';
  const raw = value as Record<string, unknown>;
  const unknown = Object.keys(raw).filter((k) => !KNOWN.has(k));
  if (unknown.length) return `unknown field "oauth.${unknown[0]}" (known: ${[...KNOWN].join(", ")})`;
  const out: OAuthConfig = { grantType: "authorization_code" };
  for (const key of STRINGS) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== "string" || v === "") return `"oauth.${key}" must be a non-empty string`;
    out[key] = expand(v);
  }
  if (raw.grantType !== undefined) {
    if (!GRANTS.includes(raw.grantType as GrantType)) return `"oauth.grantType" must be one of ${GRANTS.join(", ")}`;
    out.grantType = raw.grantType as GrantType;
  }
  if (raw.callbackPort !== undefined) {
    const port = typeof raw.callbackPort === "string" ? Number(expand(raw.callbackPort)) : raw.callbackPort;
    if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) return '"oauth.callbackPort" must be a port number (1-65535)';
    out.callbackPort = port;
  }
  if (raw.scopes !== undefined) {
    const list = typeof raw.scopes === "string" ? expand(raw.scopes).split(/\s+/) : Array.isArray(raw.scopes) ? raw.scopes : undefined;
    if (!list || list.some((s) => typeof s !== "string")) return '"oauth.scopes" must be a string of space-separated scopes or an array of strings';
    out.scopes = (list as string[]).map(expand).filter(Boolean);
  }
  if (raw.assumeS256 !== undefined) {
    if (typeof raw.assumeS256 !== "boolean") return '"oauth.assumeS256" must be true or false';
    out.assumeS256 = raw.assumeS256;
  }
  if (out.clientSecret && !out.clientId) return '"oauth.clientSecret" needs "oauth.clientId"';
  if (out.clientMetadataUrl && !/^https:\/\/[^/]+\/./.test(out.clientMetadataUrl)) return '"oauth.clientMetadataUrl" must be an https URL with a path';
  if (out.grantType === "client_credentials" && (!out.clientId || (!out.clientSecret && !out.privateKey))) {
    return '"oauth.grantType" client_credentials needs "oauth.clientId" and "oauth.clientSecret" or "oauth.privateKey"';
  }
  if (out.grantType === "cross_app_access") {
    const missing = (["clientId", "clientSecret", "idpTokenEndpoint", "idpClientId", "idToken"] as const).filter((k) => !out[k]);
    if (missing.length) return `"oauth.grantType" cross_app_access needs ${missing.map((k) => `"oauth.${k}"`).join(", ")}`;
  }
  if ((out.assertionFile || out.assertionCommand) && out.grantType !== "jwt_bearer")
    return '"oauth.assertionFile" and "oauth.assertionCommand" need "oauth.grantType" jwt_bearer';
  if (out.grantType === "jwt_bearer" && Boolean(out.assertionFile) === Boolean(out.assertionCommand)) {
    return '"oauth.grantType" jwt_bearer needs one of "oauth.assertionFile" and "oauth.assertionCommand"';
  }
  return out;
}
