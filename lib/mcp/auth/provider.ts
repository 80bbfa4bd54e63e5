/**
 * The seam between the HTTP transports and OAuth (MCP 2025-11-25, basic/authorization): a transport
 * asks the provider for the `Authorization` header of each request, and hands it every 401 or 403
 * so the provider can discover, register, log in, refresh or step up. The transports know nothing
 * of OAuth beyond this; the provider knows nothing of JSON-RPC.
 */

/** The request that was refused, for the provider's bookkeeping (never logged with its headers). */
export interface ChallengedRequest {
  url: string;
  method: string;
  /**
   * The `Authorization` value the refused request carried, when the transport knows it: a
   * provider whose token was already replaced (by a concurrent request's refresh) then just
   * answers "send it again" instead of refreshing twice.
   */
  authorization?: string;
}

export interface HttpAuthProvider {
  /**
   * The `Authorization` header value for the next request to the MCP server (e.g. "Bearer …"),
   * or undefined when there is no token yet. May refresh an expired token first.
   */
  authorization(): Promise<string | undefined>;
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
