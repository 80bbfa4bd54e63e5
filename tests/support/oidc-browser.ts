/**
 * A `$BROWSER` stand-in for oidc-provider logins: follows redirects by hand, keeping cookies per
 * host as a browser does (oidc-provider ties the interaction to them), until it reaches a page
 * that does not redirect (our loopback callback's "Logged in" page).
 */
const start = process.argv[2];
if (!start) process.exit(2);
const jar = new Map<string, Map<string, string>>();
let url = start;
for (let hop = 0; hop < 20; hop++) {
  if (process.env.BROWSER_DEBUG) process.stderr.write(`browser: ${url.slice(0, 120)}\n`);
  const host = new URL(url).host;
  const cookies = jar.get(host) ?? new Map<string, string>();
  const res = await fetch(url, { redirect: "manual", headers: cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {} });
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
  }
  jar.set(host, cookies);
  const location = res.headers.get("location");
  await res.arrayBuffer();
  if (process.env.BROWSER_DEBUG) process.stderr.write(`browser: -> ${res.status}\n`);
  if (res.status < 300 || res.status >= 400 || !location) process.exit(res.ok ? 0 : 1);
  url = new URL(location, url).href;
}
process.exit(1);
export {};
