/**
 * WebFetch's GET, guarded against server-side request forgery: every hop's host is resolved once,
 * the address is judged (address.ts), and the connection goes to that very address (the request's
 * `lookup` returns it), so a second lookup cannot switch it (DNS rebinding). Same-host redirects
 * are followed (at most 10); a redirect to another host is returned, not followed. `http://` is
 * upgraded to `https://` except on loopback. The body is read to a byte cap after decompression
 * (a gzip bomb stops at the cap), within one timeout for the whole fetch.
 * Through a proxy (HTTPS_PROXY…), the proxy resolves names, so the check is made on the name.
 * A private address without an allow rule is asked about where a person can answer, once per host and fetch.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { proxyFor } from "../../shared/proxy.ts";
import { ToolError } from "../tool-error.ts";
import { addressKind, isLoopback } from "../../shared/ip-address.ts";

export interface GetOptions {
  /** An allow rule names this host (`WebFetch(domain:host)`): private and metadata addresses are then allowed. */
  hostAllowed(host: string): boolean;
  /**
   * Asks a person whether a loopback or private address may be fetched (the session, a host);
   * absent (-p), only an allow rule lets it through. Cloud-metadata addresses are never asked about.
   */
  confirm?(reason: string): Promise<boolean>;
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
  env?: Record<string, string | undefined>;
}

export type GetResult =
  | { kind: "page"; url: string; status: number; statusText: string; contentType: string; body: Buffer }
  | { kind: "redirect"; url: string; location: string; status: number; statusText: string };

const MAX_HOPS = 10;
const USER_AGENT = "agent-webfetch/1.0 (a coding agent fetching a page its user asked about)";

/**
 * GETs `rawUrl`.
 * @throws ToolError with one line for everything that stops it: a URL that is not http(s), a host
 *   that does not resolve, an address the guard refuses, a refused connection, TLS, the timeout,
 *   the size cap, a redirect loop.
 */
export async function guardedGet(rawUrl: string, opts: GetOptions): Promise<GetResult> {
  let url = parseUrl(rawUrl);
  const env = opts.env ?? process.env;
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.signal, timeout]);
  const guard: Guard = { ...opts, confirmed: new Set() };
  try {
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
      const proxy = proxyFor(url.href, env);
      const address = proxy ? await checkName(host, guard) : await resolveChecked(host, guard, env);
      if (url.protocol === "http:" && !(address && isLoopback(address))) url = new URL(url.href.replace(/^http:/, "https:"));
      const res = await request(url, address, proxy, signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        const next = new URL(location, url);
        if (next.hostname.toLowerCase() !== url.hostname.toLowerCase()) {
          return { kind: "redirect", url: url.href, location: next.href, status, statusText: printable(res.statusMessage) };
        }
        url = parseUrl(next.href);
        continue;
      }
      const body = await readCapped(res, opts.maxBytes, signal);
      return { kind: "page", url: url.href, status, statusText: printable(res.statusMessage), contentType: String(res.headers["content-type"] ?? ""), body };
    }
    throw new ToolError(`${rawUrl}: more than ${MAX_HOPS} redirects (a redirect loop?)`);
  } catch (err) {
    if (timeout.aborted && !opts.signal.aborted) throw new ToolError(`${rawUrl}: no complete answer within ${Math.round(opts.timeoutMs / 1000)} s`);
    throw err;
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`not a valid URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ToolError(`WebFetch reads only http and https URLs (got ${url.protocol.replace(/:$/, "")})`);
  if (url.username || url.password) throw new ToolError("WebFetch does not send credentials in the URL");
  return url;
}

/**
 * `WEBFETCH_RESOLVE` (`name=address,…`) answers for those names first, like curl's --resolve: a
 * name can be pointed anywhere, and the guard still judges the address it points to.
 */
function pinned(host: string, env: Record<string, string | undefined>): string | undefined {
  for (const entry of (env.WEBFETCH_RESOLVE ?? "").split(",")) {
    const [name, address] = entry.split("=").map((s) => s.trim());
    if (name && address && name.toLowerCase() === host && isIP(address)) return address;
  }
  return undefined;
}

async function resolveChecked(host: string, opts: Guard, env: Record<string, string | undefined>): Promise<string> {
  let address = isIP(host) ? host : pinned(host, env);
  if (!address) {
    try {
      address = (await lookup(host, { verbatim: true })).address;
    } catch (err) {
      throw new ToolError(`cannot resolve ${host} (${(err as NodeJS.ErrnoException).code ?? "lookup failed"})`);
    }
  }
  await refuse(host, address, opts);
  return address;
}

/** Through a proxy: the name is judged as written (an IP literal by its kind, `localhost` as loopback). */
async function checkName(host: string, opts: Guard): Promise<undefined> {
  const literal = isIP(host) ? host : host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : undefined;
  if (literal) await refuse(host, literal, opts);
  return undefined;
}

/** The options plus the hosts a person allowed during this fetch (a same-host redirect does not ask twice). */
type Guard = GetOptions & { confirmed: Set<string> };

async function refuse(host: string, address: string, opts: Guard): Promise<void> {
  const kind = addressKind(address);
  if (kind === "public" || opts.hostAllowed(host) || opts.confirmed.has(host)) return;
  const what = kind === "metadata" ? "a link-local or cloud-metadata address" : "a loopback or private-network address";
  const via = host === address ? "" : ` (${host} resolves to it)`;
  if (kind === "private" && opts.confirm) {
    if (await opts.confirm(`WebFetch would connect to ${address}${via}, ${what} on your machine or network.`)) {
      opts.confirmed.add(host);
      return;
    }
    throw new ToolError(`the user refused to let WebFetch reach ${address}${via}, ${what}.`);
  }
  const only = kind === "metadata" ? "Only" : "Without a person to ask, only";
  throw new ToolError(`refused to fetch ${address}${via}: it is ${what}. ${only} a WebFetch(domain:${host}) allow rule lets WebFetch reach it.`);
}

async function request(url: URL, address: string | undefined, proxy: string | false, signal: AbortSignal): Promise<IncomingMessage> {
  const headers = { "user-agent": USER_AGENT, accept: "text/markdown, text/html, */*", "accept-encoding": "gzip, deflate, br" };
  if (proxy) return proxiedRequest(url, proxy, headers, signal);
  const mod = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  const family = isIP(address ?? "") || 4;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      {
        method: "GET",
        headers,
        // The connection goes to the address that was checked: no second lookup.
        lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
          o?.all ? cb(null, [{ address, family }]) : cb(null, address, family)) as never,
      },
      resolve,
    );
    const onAbort = () => req.destroy(new ToolError(`${url.href}: fetch interrupted`));
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (err: NodeJS.ErrnoException) =>
      reject(err instanceof ToolError ? err : new ToolError(`${url.href}: ${err.code ?? "connection failed"}: ${err.message}`)),
    );
    req.on("close", () => signal.removeEventListener("abort", onAbort));
    req.end();
  });
}

/** Through the proxy with fetch (which speaks CONNECT); redirects are read, never followed by fetch. */
async function proxiedRequest(url: URL, proxy: string, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  let res: Response;
  try {
    res = await fetch(url.href, { headers, redirect: "manual", signal, proxy, decompress: false } as RequestInit);
  } catch (err) {
    throw new ToolError(`${url.href}: ${(err as Error).message}`);
  }
  const { Readable } = await import("node:stream");
  const stream = res.body ? Readable.fromWeb(res.body as never) : Readable.from([]);
  return Object.assign(stream, {
    statusCode: res.status,
    statusMessage: res.statusText,
    headers: Object.fromEntries(res.headers),
  }) as unknown as IncomingMessage;
}

async function readCapped(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const encoding = String(res.headers["content-encoding"] ?? "").toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  const stream: Readable = decoder ? res.pipe(decoder) : res;
  if (decoder) res.on("error", (err) => decoder.destroy(err));
  const chunks: Buffer[] = [];
  let size = 0;
  // A server that stops sending mid-body would hold the loop below forever: the timeout ends it.
  const onAbort = () => stream.destroy(new Error("aborted"));
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      if (signal.aborted) throw signal.reason;
      size += (chunk as Buffer).length;
      if (size > maxBytes)
        throw new ToolError(`the page is larger than ${Math.round(maxBytes / 1_000_000)} MB${decoder ? " once decompressed" : ""}: not read`);
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    res.destroy();
    decoder?.destroy();
    if (err instanceof ToolError) throw err;
    if (signal.aborted) throw signal.reason;
    throw new ToolError(`the page could not be read: ${(err as Error).message}`);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  return Buffer.concat(chunks);
}

/** A server's status text without control characters: it reaches the model and, in the session, the terminal. */
function printable(text: string | undefined): string {
  return (text ?? "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").slice(0, 200);
}
