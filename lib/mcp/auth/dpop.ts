/**
 * DPoP (RFC 9449; MCP extension io.modelcontextprotocol/auth/dpop, SEP-1932): one ES256 key per
 * authorization server, kept in `mcp-oauth-dpop/<hash of the issuer>.json` beside the token store
 * (mode 0600, folder 0700), and oauth4webapi's DPoP handle built on it. The handle signs every
 * proof (typ dpop+jwt, the public jwk, a fresh jti, iat, htm, htu without query or fragment, ath
 * for a resource request) and remembers each origin's server nonce (RFC 9449 §8, §9).
 */
import { createHash, type webcrypto } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as oauth from "oauth4webapi";

/** The folder of key files, beside `mcp-oauth.json`. */
export const DPOP_KEY_DIR = "mcp-oauth-dpop";
/** The one proof algorithm we sign with (the suite and RFC 9449 §4.2's example use it). */
export const DPOP_ALGORITHM = "ES256";
const EC = { name: "ECDSA", namedCurve: "P-256" } as const;

/**
 * The handle's proof and nonce methods. oauth4webapi calls them for its own requests (token,
 * resource, userinfo) but declares only `calculateThumbprint`; our transports send the MCP
 * requests themselves, so they need the same two calls (pinned version, tested in dpop.test.ts).
 */
interface ProofHandle extends oauth.DPoPHandle {
  addProof(url: URL, headers: Headers, htm: string, accessToken?: string): Promise<void>;
  cacheNonce(response: Response, url: URL): void;
}

/** True when the authorization server's metadata offers DPoP with our algorithm (RFC 9449 §5.1). */
export function offersDpop(as: oauth.AuthorizationServer): boolean {
  const algs = as.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes(DPOP_ALGORITHM);
}

/** The key files of one config folder, and a handle per issuer for this process. */
export class DpopKeys {
  private readonly handles = new Map<string, Promise<oauth.DPoPHandle>>();

  /** @param storePath the token store's path: the keys live in its folder. */
  constructor(private readonly storePath: string) {}

  /** The key file of `issuer`. */
  keyPath(issuer: string): string {
    const name = createHash("sha256").update(issuer).digest("hex").slice(0, 32);
    return join(dirname(this.storePath), DPOP_KEY_DIR, `${name}.json`);
  }

  /**
   * oauth4webapi's DPoP handle for `issuer`, on its stored key, or on a new one written first.
   * @throws Error naming the key file when it cannot be read or written.
   */
  handle(issuer: string): Promise<oauth.DPoPHandle> {
    let handle = this.handles.get(issuer);
    if (!handle) {
      handle = this.loadOrCreate(issuer).then((keys) => oauth.DPoP({}, keys));
      this.handles.set(issuer, handle);
      handle.catch(() => this.handles.delete(issuer));
    }
    return handle;
  }

  /** Deletes `issuer`'s key (logout, a new registration): tokens bound to it are useless after. */
  delete(issuer: string): void {
    this.handles.delete(issuer);
    rmSync(this.keyPath(issuer), { force: true });
  }

  private async loadOrCreate(issuer: string): Promise<CryptoKeyPair> {
    const path = this.keyPath(issuer);
    const stored = readKeyFile(path);
    if (stored) return importPair(stored);
    const pair = (await crypto.subtle.generateKey(EC, true, ["sign", "verify"])) as CryptoKeyPair;
    const doc = { issuer, alg: DPOP_ALGORITHM, privateJwk: await crypto.subtle.exportKey("jwk", pair.privateKey) };
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      // `wx`: a concurrent process that wrote first wins, and both then sign with its key.
      writeFileSync(path, JSON.stringify(doc) + "\n", { mode: 0o600, flag: "wx" });
      chmodSync(path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw new Error(`cannot write DPoP key ${path}: ${(err as NodeJS.ErrnoException).code}`);
      const theirs = readKeyFile(path);
      if (theirs) return importPair(theirs);
    }
    return importPair(doc.privateJwk);
  }
}

function readKeyFile(path: string): webcrypto.JsonWebKey | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read DPoP key ${path}: ${(err as NodeJS.ErrnoException).code}`);
  }
  try {
    const jwk = (JSON.parse(text) as { privateJwk?: webcrypto.JsonWebKey }).privateJwk;
    if (jwk?.kty === "EC" && jwk.d) return jwk;
  } catch {}
  throw new Error(`DPoP key ${path} is not a key of ours: delete it (run mcp logout) to make a new one`);
}

/** The private key stays unextractable; the public one must be extractable (its jwk goes in every proof). */
async function importPair(jwk: webcrypto.JsonWebKey): Promise<CryptoKeyPair> {
  const { d: _d, key_ops: _ops, ...pub } = jwk;
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey("jwk", jwk, EC, false, ["sign"]),
    crypto.subtle.importKey("jwk", { ...pub, key_ops: ["verify"] }, EC, true, ["verify"]),
  ]);
  return { privateKey, publicKey };
}

/**
 * The headers of one MCP request with a DPoP-bound token (RFC 9449 §7.1): `Authorization: DPoP
 * <token>` and a proof for exactly this method and URL (the handle drops query and fragment).
 */
export async function dpopHeaders(handle: oauth.DPoPHandle, method: string, url: string, accessToken: string): Promise<Record<string, string>> {
  const headers = new Headers();
  await (handle as ProofHandle).addProof(new URL(url), headers, method.toUpperCase(), accessToken);
  return { Authorization: `DPoP ${accessToken}`, DPoP: headers.get("dpop")! };
}

/** Remembers the `DPoP-Nonce` of a resource server's response for the next proof to its origin. */
export function rememberNonce(handle: oauth.DPoPHandle, response: Response, url: string): void {
  (handle as ProofHandle).cacheNonce(response, new URL(url));
}
