/**
 * A forward HTTP proxy for tests (RFC 9112 §3.2.2 absolute-form requests), on 127.0.0.1 port 0:
 * records every request it gets, adds `Via: 1.1 test-proxy` and forwards it, streaming both ways
 * (event streams included). CONNECT (RFC 9110 §9.3.6, how https goes through a proxy) opens a
 * plain TCP tunnel: what flows in it is TLS the proxy cannot read, so only the CONNECT is recorded.
 */
import { createServer, request as forward } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { networkInterfaces } from "node:os";

export interface ForwardProxy {
  /** e.g. http://127.0.0.1:PORT, for HTTP_PROXY. */
  url: string;
  /** "METHOD absolute-url" (or "CONNECT host:port") of each request, in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

export const VIA = "1.1 test-proxy";

export async function startForwardProxy(): Promise<ForwardProxy> {
  const requests: string[] = [];
  // A tunnel's sockets leave the HTTP server's hands: closed here, by close().
  const tunnels = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("a proxy needs an absolute-form request target");
      return;
    }
    const upstream = forward(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: { ...req.headers, via: VIA } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502).end(`proxy: ${err.message}`);
      else res.destroy();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, socket, head) => {
    requests.push(`CONNECT ${req.url}`);
    const { hostname, port } = new URL(`http://${req.url}`);
    const upstream = connect(Number(port), hostname.replace(/^\[|\]$/g, ""), () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
    socket.on("error", () => upstream.destroy());
    socket.on("close", () => upstream.destroy());
    tunnels.add(socket as Socket).add(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of tunnels) s.destroy();
      }),
  };
}

/** This machine's first non-loopback IPv4 address, or undefined when it has none. */
export function nonLoopbackIPv4(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return undefined;
}
