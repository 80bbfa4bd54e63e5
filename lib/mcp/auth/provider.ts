/**
 * The seam between the HTTP transports and OAuth (MCP 2025-11-25, basic/authorization): a transport
 * asks the provider for the `Authorization` header of each request, and hands it every 401 or 403
 * so the provider can discover, register, log in, refresh or step up. The transports know nothing
 * of OAuth beyond this; the provider knows nothing of JSON-RPC.
 */

/** Where one request goes: a DPoP proof is bound to its method and URL (RFC 9449 §4.2). */
export interface RequestTarget {
  method: string;
  url: string;
}

/** The request that was refused, for the provider's bookkeeping (never logged with its headers). */
export interface ChallengedRequest {
  url: string;
  method: string;
  /**
   * The `Authorization` value the refused request carried ("Bearer …" or "DPoP …"), when the transport knows it: a
   * provider whose token was already replaced (by a concurrent request's refresh) then just
   * answers "send it again" instead of refreshing twice.
   */
  authorization?: string;
}

export interface HttpAuthProvider {
  /**
   * The credential headers for one request to the MCP server: `Authorization` ("Bearer …", or
   * "DPoP …" with a `DPoP` proof made for exactly this method and URL, RFC 9449 §7.1), or none
   * when there is no token yet. May refresh an expired token first. Call it for every request,
   * redirects included: a DPoP proof is never reused.
   */
  headers(request: RequestTarget): Promise<Record<string, string>>;
  /**
   * Called with a 401 or 403 response from the MCP server (its `WWW-Authenticate` header included).
   * Resolves true when new credentials were obtained and the request should be sent once more;
   * false when the response stands (the transport then reports it).
   * @throws AuthRequiredError when a person must log in first (never in `-p`), or an Error naming
   *   the step that failed (discovery, registration, token request).
   */
  onChallenge(response: Response, request: ChallengedRequest): Promise<boolean>;
}

/** A server needs a login that this run cannot do (no terminal, no $BROWSER, or `-p`). */
export class AuthRequiredError extends Error {
  constructor(
    readonly server: string,
    message = `MCP server "${server}" needs authentication`,
  ) {
    super(message);
    this.name = "AuthRequiredError";
  }
}
