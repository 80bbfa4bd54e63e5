/**
 * The HTTP requests both HTTP transports make (MCP 2025-11-25, basic/transports and
 * basic/authorization): static headers, the `Authorization` an auth provider supplies, one retry
 * after a challenge it answered, two more attempts (with backoff) for a request that never reached
 * the server and none for any other failure, redirects followed by hand (307/308 keep method and body; another
 * origin gets none of the config's headers, no `Authorization` and no `Mcp-Session-Id`), proxies chosen from the environment,
 * and Bun's own fetch idle timeout switched off: `MCP_TIMEOUT` and `MCP_TOOL_TIMEOUT` bound requests.
 */
import type { HttpAuthProvider } from "../auth/provider.ts";
import { errorMessage } from "../../shared/values.ts";
import { proxyFor } from "../../shared/proxy.ts";
import { NotSentError } from "../protocol/errors.ts";
import { sleep } from "../../shared/async.ts";

export interface HttpClientOptions {
  /** Headers from the config entry, sent on every request to the server's own origin. */
  headers?: Record<string, string>;
  auth?: HttpAuthProvider;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read; process.env when absent. */
  env?: Record<string, string | undefined>;
}

export interface HttpRequest {
  method: "GET" | "POST" | "DELETE";
  /** Protocol headers (Accept, Content-Type, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID). */
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/**
 * Waits before sending again a request that never left (connection refused, name not resolved), in
 * ms: two more attempts, within the request's own timeout (its signal ends the wait).
 */
export const RETRY_DELAYS_MS = [100, 400];

/** Error codes that mean no byte of the request reached the server. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ConnectionRefused", "ENOTFOUND", "EAI_AGAIN", "DNSException"]);

function neverSent(error: unknown): boolean {
  return NEVER_SENT.has(String((error as { code?: unknown })?.code ?? ""));
}

/** Times a 429 is waited out (its Retry-After, at most MAX_RETRY_AFTER_MS) before it is the answer. */
const MAX_429_RETRIES = 2;
const MAX_RETRY_AFTER_MS = 5000;

/** `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) in ms, or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Redirects followed per request before giving up. */
const MAX_REDIRECTS = 5;
/** Characters of a response body quoted in an error line. */
export const BODY_EXCERPT_CHARS = 300;
/** Protocol headers that never cross to another origin on a redirect (the config's headers never do either). */
const ORIGIN_BOUND = ["authorization", "mcp-session-id"];

export class HttpClient {
  private readonly staticHeaders: Record<string, string>;
  private readonly staticAuth: boolean;

  constructor(private readonly opts: HttpClientOptions = {}) {
    this.staticHeaders = opts.headers ?? {};
    this.staticAuth = Object.keys(this.staticHeaders).some((k) => k.toLowerCase() === "authorization");
  }

  /**
   * Sends `req` to `url`, following redirects; on a 401 or 403 asks the auth provider once and, when
   * it says so, sends the request again. Resolves with the final response (any status).
   * @throws Error with a one-line reason: "cannot connect to http://…: ECONNREFUSED", "TLS: …",
   *   "too many redirects", "HTTP 401 … needs authorization" (no provider, no static header).
   */
  async fetch(url: string, req: HttpRequest): Promise<Response> {
    let response = await this.follow(url, req);
    // A 429 was not processed (RFC 6585 §4): sent again after its Retry-After, when that is short.
    for (let retry = 0; response.status === 429 && retry < MAX_429_RETRIES && !req.signal?.aborted; retry++) {
      const wait = retryAfterMs(response.headers.get("retry-after"));
      if (wait === undefined || wait > MAX_RETRY_AFTER_MS) break;
      await discard(response);
      await sleep(wait, req.signal);
      response = await this.follow(url, req);
    }
    // One retry after an answered challenge, and one more when the new DPoP-bound token's first
    // use is met with the server's nonce (RFC 9449 §9): the provider bounds both.
    for (let round = 0; round < 2 && (response.status === 401 || response.status === 403) && this.opts.auth && !this.staticAuth; round++) {
      if (round === 1 && !(response.status === 401 && response.headers.has("dpop-nonce"))) break;
      const again = await this.opts.auth.onChallenge(response, { url, method: req.method });
      if (!again) break;
      await discard(response);
      response = await this.follow(url, req);
    }
    if (response.status === 401 && (this.staticAuth || !this.opts.auth)) {
      const challenge = response.headers.get("www-authenticate");
      await discard(response);
      const why = this.staticAuth ? "the Authorization header in the config was refused" : "the server needs authorization";
      throw new Error(`HTTP 401 Unauthorized from ${displayUrl(url)}: ${why}${challenge ? ` (WWW-Authenticate: ${challenge.slice(0, 200)})` : ""}`);
    }
    return response;
  }

  private async follow(url: string, req: HttpRequest): Promise<Response> {
    const origin = new URL(url).origin;
    let target = url;
    let method = req.method;
    let body = req.body;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const sameOrigin = new URL(target).origin === origin;
      // The config's headers are the server's own (API keys as much as Authorization): never another origin's.
      const headers: Record<string, string> = sameOrigin ? { ...this.staticHeaders, ...req.headers } : { ...req.headers };
      if (sameOrigin && !this.staticAuth && this.opts.auth) {
        // Asked per hop: a DPoP proof names this method and URL, and is never reused.
        Object.assign(headers, await this.opts.auth.headers({ method, url: target }));
      }
      if (!sameOrigin) for (const key of Object.keys(headers)) if (ORIGIN_BOUND.includes(key.toLowerCase())) delete headers[key];
      let response: Response;
      for (let attempt = 0; ; attempt++) {
        try {
          response = await fetch(target, {
            method,
            headers,
            body,
            signal: req.signal,
            redirect: "manual",
            // Bun's fetch has an idle timeout of its own (about 5 minutes) that would cut a long
            // tools/call or a quiet GET stream; the session layer's timeouts are the only ones.
            timeout: false,
            proxy: proxyFor(target, this.opts.env ?? process.env),
          });
          break;
        } catch (error) {
          // Only a request that cannot have reached the server is sent again: a tool may not be
          // safe to run twice, so a reset, a lost response or any status is never retried.
          if (attempt >= RETRY_DELAYS_MS.length || !neverSent(error) || req.signal?.aborted) {
            throw neverSent(error) ? new NotSentError(describeFetchError(error, target)) : new Error(describeFetchError(error, target));
          }
          await sleep(RETRY_DELAYS_MS[attempt]!, req.signal);
        }
      }
      const location = response.headers.get("location");
      if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
      await discard(response);
      target = new URL(location, target).href;
      // 307 and 308 keep the method and the body (RFC 9110 §15.4); the others turn a POST into a GET.
      if (response.status !== 307 && response.status !== 308 && method === "POST") {
        method = "GET";
        body = undefined;
      }
    }
    throw new Error(`too many redirects (more than ${MAX_REDIRECTS}) from ${url}`);
  }
}

/** One line for a fetch that failed before any response: refused, unresolvable host, TLS. */
export function describeFetchError(error: unknown, url: string): string {
  const code = String((error as { code?: unknown })?.code ?? "");
  const origin = safeOrigin(url);
  if (code === "ECONNREFUSED" || code === "ConnectionRefused") return `cannot connect to ${origin}: ECONNREFUSED`;
  if (code === "ENOTFOUND") return `cannot connect to ${origin}: host not found (ENOTFOUND)`;
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/i.test(code)) return `TLS: ${fetchReason(error, code)} (${code}) from ${origin}`;
  if ((error as Error)?.name === "AbortError") return `request to ${origin} aborted`;
  return `cannot connect to ${origin}: ${fetchReason(error, code)}${code ? ` (${code})` : ""}`;
}

/** Reasons for codes whose runtime message is only the code, the URL and advice meant for programmers. */
const READABLE_REASON: Record<string, string> = { ERR_TLS_CERT_ALTNAME_INVALID: "the certificate is not valid for this host name" };

function fetchReason(error: unknown, code: string): string {
  return READABLE_REASON[code] ?? errorMessage(error).replace(/\s*For more information, pass `verbose: true` in the second argument to fetch\(\)\.?/, "");
}

/**
 * "HTTP 502 Bad Gateway from https://…/mcp (body: …)" with at most `BODY_EXCERPT_CHARS` of the body
 * on one line. Reads (and so consumes) the body.
 */
export async function describeHttpError(response: Response, url: string): Promise<string> {
  let text = "";
  try {
    text = await response.text();
  } catch {
    // A body that breaks off is not worth a second error.
  }
  const flat = text.replace(/\s+/g, " ").trim();
  const excerpt = flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
  const statusText = response.statusText || STATUS_TEXT[response.status] || "";
  return `HTTP ${response.status}${statusText ? ` ${statusText}` : ""} from ${url}${excerpt ? ` (body: ${excerpt})` : ""}`;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Releases a response's connection without reading what nobody needs. */
export async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already consumed or errored.
  }
}

/** The URL with any userinfo and query removed: what a line may show. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
