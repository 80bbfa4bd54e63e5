/**
 * Which hosts the sandbox's proxy lets through: `deniedDomains` first, then `allowedDomains`
 * (exact names, or `*.example.com` for every name below example.com), else unknown, for the mode
 * to ask about or refuse. Names are compared lowercased, without a trailing dot or IPv6 brackets.
 */

export interface DomainLists {
  allowed: string[];
  denied: string[];
}

export type DomainVerdict = "allow" | "deny" | "unknown";

/** `host` as compared: lowercase, no trailing dot, no brackets. */
export function normalHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/** True when `pattern` (`example.com`, `*.example.com`, `*`) names `host`. */
export function domainMatches(host: string, pattern: string): boolean {
  const h = normalHost(host);
  const p = normalHost(pattern);
  if (p === "*") return true;
  if (p.startsWith("*.")) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
  return h === p;
}

export function domainVerdict(host: string, lists: DomainLists): DomainVerdict {
  if (lists.denied.some((p) => domainMatches(host, p))) return "deny";
  if (lists.allowed.some((p) => domainMatches(host, p))) return "allow";
  return "unknown";
}
