/**
 * The sandbox's filtering proxy, on the host side of a Unix socket: HTTP `CONNECT host:port`
 * (HTTPS and anything tunnelled) and plain-HTTP requests in absolute form (`GET http://host/…`).
 * `decide` says yes or no per host (domains.ts, then the mode's question); a refusal is a 403 whose
 * body names the host, so the command's own error tells the model what was refused. Inside the
 * namespace the bridge (bridge.ts) is the only way out to this socket.
 */
import { lookup } from "node:dns/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { addressKind } from "../shared/ip-address.ts";
import { normalHost } from "./domains.ts";

/** The longest request head read before a request is refused (bytes). */
const MAX_HEAD = 64 * 1024;

export interface ProxyOptions {
  /** The Unix socket path to listen on. */
  socket: string;
  /** Whether a connection to `host` (normalised) may go through. */
  decide(host: string, port: number): Promise<boolean>;
  /**
   * Whether `host`, once allowed, may lead to a loopback, private or link-local address: only a name
   * the user gave exactly (not `*` or `*.example.com`), so a wildcard never opens the host's own
   * services or a cloud metadata endpoint. Absent: never.
   */
  reachesPrivate?(host: string): boolean;
}

export interface FilteringProxy {
  socket: string;
  close(): Promise<void>;
}

export function startFilteringProxy(opts: ProxyOptions): Promise<FilteringProxy> {
  const server: Server = createServer((client) => handle(client, opts));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.socket, () => {
      server.off("error", reject);
      resolve({ socket: opts.socket, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** The target of a request head: CONNECT's authority, or an absolute URL's host (its request line rewritten to origin form). */
export function requestTarget(head: string): { host: string; port: number; tunnel: boolean; line?: string } | undefined {
  const first = head.slice(0, head.indexOf("\r\n"));
  const m = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(first);
  if (!m) return undefined;
  const [, method, target, version] = m;
  if (method === "CONNECT") {
    const a = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target!);
    return a && plainHost(normalHost(a[1]!)) ? { host: normalHost(a[1]!), port: Number(a[2]), tunnel: true } : undefined;
  }
  let url: URL;
  try {
    url = new URL(target!);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || !plainHost(normalHost(url.hostname))) return undefined;
  return { host: normalHost(url.hostname), port: Number(url.port || 80), tunnel: false, line: `${method} ${url.pathname}${url.search} ${version}` };
}

/** A host name or address only (letters, digits, `.`, `-`, `_`, `:` for IPv6): anything else is refused before anyone sees it. */
const plainHost = (host: string) => /^[a-z0-9._:-]{1,253}$/.test(host);

function handle(client: Socket, opts: ProxyOptions): void {
  let head = Buffer.alloc(0);
  client.on("error", () => client.destroy());
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) {
      if (head.length > MAX_HEAD) refuse(client, 431, "request head too large");
      return;
    }
    client.off("data", onData);
    client.pause();
    void forward(client, head.subarray(0, end + 4).toString("latin1"), head.subarray(end + 4), opts);
  };
  client.on("data", onData);
}

async function forward(client: Socket, head: string, rest: Buffer, opts: ProxyOptions): Promise<void> {
  const target = requestTarget(head);
  if (!target) return refuse(client, 400, "the sandbox's proxy takes CONNECT or absolute http:// requests only");
  let allowed = false;
  try {
    allowed = await opts.decide(target.host, target.port);
  } catch {
    allowed = false;
  }
  if (!allowed) return refuse(client, 403, `the sandbox refused ${target.host}: not among its allowed domains`);
  // The address is resolved once, checked, and connected to: a second lookup cannot switch it.
  let address: string;
  try {
    address = (await lookup(target.host)).address;
  } catch (err) {
    return refuse(client, 502, `cannot resolve ${target.host} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const kind = addressKind(address);
  if (kind !== "public" && !opts.reachesPrivate?.(target.host)) {
    const what = kind === "metadata" ? "a link-local or cloud metadata address" : "a loopback or private address";
    return refuse(
      client,
      403,
      `the sandbox refused ${target.host}: it leads to ${address}, ${what}, which only a domain named exactly in allowedDomains may reach`,
    );
  }
  const upstream = connect(target.port, address);
  upstream.once("error", (err) => refuse(client, 502, `cannot reach ${target.host}:${target.port} (${(err as NodeJS.ErrnoException).code ?? err.message})`));
  upstream.once("connect", () => {
    upstream.removeAllListeners("error");
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    if (target.tunnel) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    else upstream.write(originHead(target.line!, head), "latin1");
    if (rest.length) upstream.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
}

/**
 * A plain-HTTP request head for the origin: its request line in origin form, and `Connection: close`
 * in place of the client's connection headers, so the next request, maybe for another host, comes
 * on a new connection and is decided again.
 */
export function originHead(line: string, head: string): string {
  const headers = head
    .slice(head.indexOf("\r\n") + 2, -4)
    .split("\r\n")
    .filter((h) => h && !/^(proxy-)?connection\s*:/i.test(h) && !/^keep-alive\s*:/i.test(h));
  return `${line}\r\n${[...headers, "Connection: close"].join("\r\n")}\r\n\r\n`;
}

function refuse(client: Socket, status: number, why: string): void {
  const reason = { 400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large", 502: "Bad Gateway" }[status] ?? "Error";
  const body = `${why}\n`;
  client.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
