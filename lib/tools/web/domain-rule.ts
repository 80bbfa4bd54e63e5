/**
 * Claude Code's WebFetch permission rules: `WebFetch(domain:example.com)` names one host;
 * `WebFetch(domain:*.example.com)` names its subdomains; bare `WebFetch` names every fetch. A rule
 * that does not parse names nothing (an allow rule never allows; the settings engine keeps a deny
 * rule's failure closed by its own reading).
 */

export const WEB_FETCH_TOOL = "WebFetch";

/** The host a WebFetch input's `url` names (lowercase, IPv6 without brackets), or undefined when it does not parse. */
export function hostOfInput(input: Record<string, unknown>): string | undefined {
  if (typeof input.url !== "string") return undefined;
  try {
    return new URL(input.url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

/** Whether the specifier of a `WebFetch(…)` rule (`domain:example.com`) covers `host`. */
export function domainSpecCovers(spec: string, host: string): boolean {
  const m = /^domain:\s*(\S+)$/i.exec(spec.trim());
  if (!m) return false;
  const pattern = m[1]!
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  const name = host.toLowerCase().replace(/\.$/, "");
  if (pattern.startsWith("*.")) return name.endsWith(pattern.slice(1));
  return name === pattern;
}

/**
 * Whether one rule text (`--allowedTools` entry or settings rule) names a fetch of `host` by its
 * domain: only `WebFetch(domain:…)` rules do; bare `WebFetch` lets the tool run but names no host,
 * so it never opens a private address.
 */
export function ruleNamesHost(rule: string, host: string): boolean {
  const m = /^WebFetch\((.*)\)$/s.exec(rule.trim());
  return m !== null && domainSpecCovers(m[1]!, host);
}

/** Whether `--allowedTools` entries let this call run: a WebFetch call to a host a `WebFetch(domain:…)` entry names. */
export function allowedByDomainRule(rules: Iterable<string>, toolName: string, input: Record<string, unknown>): boolean {
  if (toolName !== WEB_FETCH_TOOL) return false;
  const host = hostOfInput(input);
  if (host === undefined) return false;
  for (const rule of rules) if (ruleNamesHost(rule, host)) return true;
  return false;
}
