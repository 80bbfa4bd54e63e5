/**
 * The token endpoint's refusals that change what the provider does next (RFC 6749 §5.2), in a
 * file of their own so that checking for them loads none of the OAuth machinery.
 */

/** The authorization server refused the grant itself (`invalid_grant`): a new login is needed. */
export class GrantRefusedError extends Error {
  override name = "GrantRefusedError";
}

/** The authorization server no longer knows the client (`invalid_client`, RFC 6749 §5.2). */
export class UnknownClientError extends Error {
  override name = "UnknownClientError";
}

/** A refusal that no retry can mend (the workload-identity grant's invalid_grant, invalid_scope, unauthorized_client). */
export class FinalGrantError extends Error {
  override name = "FinalGrantError";
}
