/**
 * Which scopes to ask for (MCP 2025-11-25 basic/authorization, "Scope Selection Strategy"):
 * `oauth.scopes` when configured; else the challenge's `scope` (SA-10: authoritative, no
 * assumption about `scopes_supported`); else the resource metadata's `scopes_supported` (SA-11);
 * else none, and the request carries no `scope` at all. `offline_access` (for a refresh token) is
 * added only when the authorization server lists it (SEP-2207), and only to a request that names
 * scopes anyway, so that least privilege holds.
 */

export interface ScopeInputs {
  configured?: string[];
  challenge?: string;
  resourceScopes?: unknown;
  serverScopes?: unknown;
}

export function splitScopes(scope: string | undefined): string[] {
  return (scope ?? "").split(/\s+/).filter(Boolean);
}

/** The scopes for a new authorization, or undefined for "send no scope parameter". */
export function chooseScopes(inputs: ScopeInputs): string[] | undefined {
  let scopes: string[] | undefined;
  if (inputs.configured?.length) return [...inputs.configured];
  const challenge = splitScopes(inputs.challenge);
  if (challenge.length) scopes = challenge;
  else if (Array.isArray(inputs.resourceScopes) && inputs.resourceScopes.length)
    scopes = inputs.resourceScopes.filter((s): s is string => typeof s === "string");
  if (!scopes?.length) return undefined;
  if (Array.isArray(inputs.serverScopes) && inputs.serverScopes.includes("offline_access") && !scopes.includes("offline_access")) scopes.push("offline_access");
  return scopes;
}

/** Step-up (SA-21): what the token had plus what the 403 asks for, without repeats, in first-seen order. */
export function unionScopes(...lists: (string[] | undefined)[]): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}
