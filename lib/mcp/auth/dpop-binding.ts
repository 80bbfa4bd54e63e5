/**
 * The DPoP side of one server's OAuth provider (RFC 9449): the proof headers of a request that
 * carries a DPoP-bound token, a server's `use_dpop_nonce` answered once per nonce and origin (§9),
 * the handle a token request signs with when the metadata offers DPoP (§5.1), and an authorization
 * server's key dropped once no server's login uses it. The key files (dpop.ts, and with them
 * oauth4webapi) are loaded only when one of these is needed.
 */
import type { AuthorizationServer, DPoPHandle } from "oauth4webapi";
import type { DpopKeys } from "./dpop.ts";
import type { TokenStore } from "./store.ts";

export class DpopBinding {
  private keys?: DpopKeys;
  /** The last server nonce answered per origin: the same one asked for again is not retried twice. */
  private readonly nonces = new Map<string, string>();

  constructor(private readonly store: TokenStore) {}

  /** The Authorization and DPoP headers of one request with `accessToken`, proven with `issuer`'s key. */
  async headers(issuer: string, method: string, url: string, accessToken: string): Promise<Record<string, string>> {
    const { dpopHeaders } = await import("./dpop.ts");
    return dpopHeaders(await (await this.keyFiles()).handle(issuer), method, url, accessToken);
  }

  /** RFC 9449 §9: keeps the server's nonce for the next proof. False when it sent none, or the nonce just sent. */
  async answerNonce(response: Response, url: string, issuer: string): Promise<boolean> {
    const nonce = response.headers.get("dpop-nonce");
    const origin = new URL(url).origin;
    if (!nonce || this.nonces.get(origin) === nonce) return false;
    this.nonces.set(origin, nonce);
    const { rememberNonce } = await import("./dpop.ts");
    rememberNonce(await (await this.keyFiles()).handle(issuer), response, url);
    return true;
  }

  /** The handle a token request to `as` signs with, when its metadata offers DPoP (RFC 9449 §5.1). */
  async forTokenRequest(as: AuthorizationServer): Promise<DPoPHandle | undefined> {
    const { offersDpop } = await import("./dpop.ts");
    return offersDpop(as) ? (await this.keyFiles()).handle(as.issuer) : undefined;
  }

  /** Deletes `issuer`'s key unless a server other than `except` still holds credentials from it. */
  async dropUnlessShared(issuer: string, except?: string): Promise<void> {
    if (!this.store.hasIssuer(issuer, except)) (await this.keyFiles()).delete(issuer);
  }

  private async keyFiles(): Promise<DpopKeys> {
    if (!this.keys) {
      const { DpopKeys } = await import("./dpop.ts");
      this.keys = new DpopKeys(this.store.path);
    }
    return this.keys;
  }
}
