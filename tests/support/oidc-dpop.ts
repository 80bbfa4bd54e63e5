/**
 * The resource server's side of DPoP (RFC 9449 §4.3, §7.1, §9) for test fixtures: the proof in
 * the `DPoP` header is a dpop+jwt signed by the key in its own `jwk`, for this method and URL
 * (htu without query or fragment), recent, never seen before (jti), bound to the presented token
 * (ath) and to the key the token was issued for (its `jkt`), and carries the server's nonce when
 * the fixture hands one out.
 */

interface EcJwk {
  kty: string;
  crv: string;
  x: string;
  y: string;
  d?: string;
}

const part = (s: string) => JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as Record<string, unknown>;

/** The JWS's header and payload when its ES256 signature verifies with the header's own `jwk`. */
async function verifyEmbedded(jws: string): Promise<{ header: Record<string, unknown>; payload: Record<string, unknown> }> {
  const [h = "", p = "", sig = ""] = jws.split(".");
  const header = part(h);
  if (header.typ !== "dpop+jwt" || header.alg !== "ES256") throw new Error(`typ ${String(header.typ)}, alg ${String(header.alg)}`);
  const { d: _d, ...jwk } = header.jwk as EcJwk;
  const key = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const ok = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, Buffer.from(sig, "base64url"), Buffer.from(`${h}.${p}`));
  if (!ok) throw new Error("bad signature");
  return { header, payload: part(p) };
}

/** RFC 7638 SHA-256 thumbprint of an EC key. */
function thumbprint(jwk: EcJwk): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest("base64url");
}

export interface DpopRequirements {
  /** The resource server's nonce: a proof without it is answered `use_dpop_nonce`. */
  nonce?: string;
  /** jti values seen so far (replay detection); the check adds to it. */
  seen: Set<string>;
}

export type DpopVerdict = { ok: true } | { ok: false; error: "invalid_dpop_proof" | "use_dpop_nonce"; reason: string };

/** Checks `req`'s proof for `accessToken`, whose confirmation key thumbprint is `jkt`. */
export async function checkDpopProof(req: Request, accessToken: string, jkt: string, want: DpopRequirements): Promise<DpopVerdict> {
  const proof = req.headers.get("dpop");
  const bad = (reason: string): DpopVerdict => ({ ok: false, error: "invalid_dpop_proof", reason });
  if (!proof || proof.includes(",")) return bad("one DPoP header expected");
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    ({ header, payload } = await verifyEmbedded(proof));
  } catch (err) {
    return bad(`proof does not verify: ${(err as Error).message}`);
  }
  const jwk = header.jwk as EcJwk;
  if (jwk.d !== undefined) return bad("private key in jwk");
  const url = new URL(req.url);
  if (payload.htm !== req.method) return bad("htm");
  if (payload.htu !== `${url.origin}${url.pathname}`) return bad(`htu ${String(payload.htu)}`);
  if (typeof payload.iat !== "number" || Math.abs(Date.now() / 1000 - payload.iat) > 300) return bad("iat");
  if (typeof payload.jti !== "string" || want.seen.has(payload.jti)) return bad("jti missing or replayed");
  want.seen.add(payload.jti);
  const ath = new Bun.CryptoHasher("sha256").update(accessToken).digest("base64url");
  if (payload.ath !== ath) return bad("ath");
  if (thumbprint(jwk) !== jkt) return bad("key is not the token's cnf.jkt");
  if (want.nonce !== undefined && payload.nonce !== want.nonce) return { ok: false, error: "use_dpop_nonce", reason: "nonce" };
  return { ok: true };
}
