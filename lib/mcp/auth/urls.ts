/**
 * The URL rules of MCP 2025-11-25 basic/authorization: the canonical resource URI (RFC 8707 §2,
 * "Canonical Server URI"), whether a protected resource's `resource` covers the server we asked
 * for (RFC 9728 §3.3), and the HTTPS rule for authorization-server endpoints (SA-23) with its one
 * exemption: loopback hosts, which only this machine can answer (the same reasoning as RFC 8252
 * §8.3 for redirect URIs). Local test servers and the conformance suite live there.
 */

/** Lower-case scheme and host (URL does that), no fragment, no default port, no trailing slash on the path. */
export function canonicalResource(url: string | URL): string {
  const u = new URL(url);
  u.hash = "";
  let href = u.href;
  if (u.search === "" && href.endsWith("/")) href = href.slice(0, -1);
  return href;
}

/**
 * True when the metadata's `resource` names this server: the same origin, and a path that is the
 * server's path or a parent of it at a `/` boundary (a resource of `https://h` covers `https://h/mcp`).
 */
export function resourceCovers(resource: string, serverUrl: string): boolean {
  let r: URL;
  let s: URL;
  try {
    r = new URL(resource);
    s = new URL(serverUrl);
  } catch {
    return false;
  }
  if (r.origin !== s.origin) return false;
  const rp = r.pathname.replace(/\/$/, "");
  const sp = s.pathname.replace(/\/$/, "");
  return sp === rp || sp.startsWith(rp + "/");
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** True for https, and for http on a loopback host (the documented exemption). */
export function isSecureEndpoint(url: string | URL): boolean {
  const u = new URL(url);
  return u.protocol === "https:" || (u.protocol === "http:" && isLoopbackHost(u.hostname));
}

/**
 * @throws Error `<what> must use https (got <url>)` for any other endpoint, naming the URL without its query.
 */
export function requireSecureEndpoint(url: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`${what} is not a valid URL: ${JSON.stringify(url)}`);
  }
  if (!isSecureEndpoint(u)) throw new Error(`${what} must use https (got ${u.origin}${u.pathname})`);
  return u;
}
