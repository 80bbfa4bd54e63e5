/**
 * `WWW-Authenticate` parsing (RFC 9110 §11.6.1, RFC 6750 §3): one header may carry several
 * challenges, each a scheme followed by either a token68 or `name=value` parameters, quoted (with
 * `\` escapes) or bare; schemes and parameter names are case-insensitive. Malformed parts are
 * skipped, never thrown.
 */

export interface Challenge {
  /** The auth scheme, lower-cased ("bearer", "basic", "dpop"…). */
  scheme: string;
  /** Parameters by lower-cased name; a token68 value (e.g. `Negotiate abc==`) is under "token68". */
  params: Record<string, string>;
}

const SEPARATORS = ' \t,="';

/** Every challenge in the header value, in order. An empty or absent header gives []. */
export function parseWwwAuthenticate(header: string | null | undefined): Challenge[] {
  const out: Challenge[] = [];
  const s = header ?? "";
  let i = 0;
  let current: Challenge | undefined;
  // True right after a scheme, before any comma: the one place a token68 may stand.
  let afterScheme = false;
  const skipSpace = () => {
    while (s[i] === " " || s[i] === "\t") i++;
  };
  const readToken = () => {
    const start = i;
    while (i < s.length && !SEPARATORS.includes(s[i]!)) i++;
    return s.slice(start, i);
  };
  const readQuoted = () => {
    let value = "";
    for (i++; i < s.length && s[i] !== '"'; i++) {
      if (s[i] === "\\" && i + 1 < s.length) i++;
      value += s[i];
    }
    i++;
    return value;
  };
  while (i < s.length) {
    skipSpace();
    if (s[i] === ",") {
      afterScheme = false;
      i++;
      continue;
    }
    const token = readToken();
    if (!token) {
      i++; // a stray '=' or quote: skip it rather than loop forever
      continue;
    }
    skipSpace();
    if (s[i] === "=") {
      let j = i;
      while (s[j] === "=") j++;
      const rest = s.slice(j).trimStart();
      const padding = rest === "" || rest.startsWith(",");
      if (padding && afterScheme && current) {
        current.params.token68 = token + s.slice(i, j); // `abc==`
        i = j;
        afterScheme = false;
        continue;
      }
      if (current) {
        i++;
        skipSpace();
        current.params[token.toLowerCase()] = s[i] === '"' ? readQuoted() : readToken();
        afterScheme = false;
        continue;
      }
      i = j; // a parameter before any scheme: ignore it
      continue;
    }
    if (afterScheme && current) {
      current.params.token68 = token;
      afterScheme = false;
      continue;
    }
    current = { scheme: token.toLowerCase(), params: {} };
    out.push(current);
    afterScheme = true;
  }
  return out;
}

/**
 * The first Bearer challenge's parameters, or undefined. RFC 6750 §3 defines `error`, `scope` and
 * `error_description`; RFC 9728 §5.1 adds `resource_metadata`.
 */
export function bearerChallenge(header: string | null | undefined): Record<string, string> | undefined {
  return parseWwwAuthenticate(header).find((c) => c.scheme === "bearer")?.params;
}

/**
 * The parameters of the first Bearer challenge, else of the first DPoP one (RFC 9449 §7.1: a
 * server that takes DPoP-bound tokens challenges with that scheme, `resource_metadata` included).
 */
export function authChallenge(header: string | null | undefined): Record<string, string> | undefined {
  const all = parseWwwAuthenticate(header);
  return (all.find((c) => c.scheme === "bearer") ?? all.find((c) => c.scheme === "dpop"))?.params;
}

/** True when a DPoP challenge asks for a server nonce (RFC 9449 §9: `error="use_dpop_nonce"`). */
export function asksForDpopNonce(header: string | null | undefined): boolean {
  return parseWwwAuthenticate(header).some((c) => c.scheme === "dpop" && c.params.error === "use_dpop_nonce");
}
