/**
 * An authorization server for the workload-identity grant (SEP-1933, RFC 7523 §2.1, §3) in
 * tests: RFC 8414 metadata and a token endpoint that accepts
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` when the assertion is an ES256 JWT
 * signed by the workload identity provider's key (`sign`), with `aud` this issuer and an `exp` in
 * the future. It records every token request, and can be told to refuse (`refuse`).
 */
import { canonicalResource } from "../../lib/mcp/auth/urls.ts";

export interface WifServer {
  issuer: string;
  /** Every token request's form parameters, in order. */
  requests: URLSearchParams[];
  /** Access tokens issued, still valid. */
  tokens: Set<string>;
  /** An `error` code every token request gets from now on (undefined: grant again). */
  refuse?: string;
  /** A workload JWT from the provider this server trusts; `exp` in seconds from now (negative: expired). */
  sign(claims?: { aud?: string; exp?: number; sub?: string }): Promise<string>;
  stop(): void;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

export async function startWifServer(resource: string): Promise<WifServer> {
  const idp = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
  const state: WifServer = {
    issuer: "",
    requests: [],
    tokens: new Set(),
    async sign(claims = {}) {
      const now = Math.floor(Date.now() / 1000);
      const body = `${b64({ alg: "ES256", typ: "JWT" })}.${b64({ iss: "https://idp.test", sub: claims.sub ?? "workload-1", aud: claims.aud ?? state.issuer, iat: now, exp: now + (claims.exp ?? 300) })}`;
      const sig = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, idp.privateKey, Buffer.from(body));
      return `${body}.${Buffer.from(sig).toString("base64url")}`;
    },
    stop: () => server.stop(true),
  };
  const verify = async (jwt: string): Promise<string | undefined> => {
    const [h = "", p = "", s = ""] = jwt.split(".");
    const ok = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, idp.publicKey, Buffer.from(s, "base64url"), Buffer.from(`${h}.${p}`));
    if (!ok) return "bad signature";
    const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as { aud?: string; exp?: number };
    if (claims.aud !== state.issuer) return "wrong audience";
    if (!claims.exp || claims.exp * 1000 < Date.now()) return "expired";
    return undefined;
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return Response.json({
          issuer: state.issuer,
          token_endpoint: `${state.issuer}/token`,
          grant_types_supported: [JWT_BEARER],
          token_endpoint_auth_methods_supported: ["none"],
        });
      }
      if (url.pathname !== "/token" || req.method !== "POST") return new Response("not found", { status: 404 });
      const form = new URLSearchParams(await req.text());
      state.requests.push(form);
      const refuse = (error: string, description: string) => Response.json({ error, error_description: description }, { status: 400 });
      if (state.refuse) return refuse(state.refuse, "refused by the test");
      if (form.get("grant_type") !== JWT_BEARER) return refuse("unsupported_grant_type", String(form.get("grant_type")));
      if (form.get("resource") !== canonicalResource(resource)) return refuse("invalid_target", String(form.get("resource")));
      const why = await verify(form.get("assertion") ?? "");
      if (why) return refuse("invalid_grant", why);
      const token = `wif-${crypto.randomUUID()}`;
      state.tokens.add(token);
      return Response.json({ access_token: token, token_type: "Bearer", expires_in: 3600 });
    },
  });
  state.issuer = `http://127.0.0.1:${server.port}`;
  return state;
}
