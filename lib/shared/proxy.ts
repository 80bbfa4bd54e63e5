/**
 * Which proxy an HTTP request to a remote MCP server or its authorization server goes through,
 * from the environment as curl reads it (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, either case),
 * with one rule of ours on top: loopback is always direct. Bun's fetch reads the same variables
 * on its own but sends loopback through the proxy too, so every request states its choice.
 */

/**
 * The proxy URL for `url`, or false for a direct connection: always for loopback hosts
 * (`localhost`, `*.localhost`, `127.0.0.0/8`, `::1`), and for hosts `NO_PROXY` lists (`*`, a
 * host, `.suffix` or `suffix`, optionally with `:port`).
 */
export function proxyFor(url: string, env: Record<string, string | undefined>): string | false {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\./.test(host)) return false;
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? "").split(/[,\s]+/).filter(Boolean);
  for (const entry of noProxy) {
    if (entry === "*") return false;
    const [pattern, entryPort] = entry.toLowerCase().split(/:(?=\d+$)/) as [string, string | undefined];
    if (entryPort && entryPort !== port) continue;
    const bare = pattern.replace(/^\*?\./, "");
    if (host === bare || host.endsWith(`.${bare}`)) return false;
  }
  const proxy = u.protocol === "https:" ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  return proxy ? proxy : false;
}

/** `fetch` with the proxy `proxyFor` picks from process.env: what the OAuth requests use. */
export function proxiedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, proxy: proxyFor(url, process.env) } as RequestInit);
}
