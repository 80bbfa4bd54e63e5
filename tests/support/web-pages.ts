/**
 * A web server of ours on 127.0.0.1 (port 0) for WebFetch: a page, same-host and cross-host
 * redirects, a redirect loop, a huge page, a page that never ends, one that never answers, a gzip
 * bomb, a binary file and a long text. Every request's path and Host header is recorded.
 */
import type { Server } from "bun";
import { gzipSync } from "node:zlib";

export const PAGE_HTML =
  "<html><head><title>Hello Title</title><style>body{color:red}</style></head><body><h1>Hello Head</h1>" +
  "<script>alert('no scripts')</script><p><b>bold</b> and <a href='/x'>link</a></p><ul><li>one</li></ul></body></html>";

export interface WebPages {
  port: number;
  url(path: string): string;
  seen: { path: string; host: string | null }[];
  stop(): void;
}

export function startWebPages(): WebPages {
  const seen: WebPages["seen"] = [];
  // About 50 MB of zeros, about 50 kB on the wire.
  const bomb = gzipSync(Buffer.alloc(50_000_000));
  const never = new Promise<Response>(() => {});
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch(req): Response | Promise<Response> {
      const url = new URL(req.url);
      seen.push({ path: url.pathname, host: req.headers.get("host") });
      const port: number = server.port!;
      switch (url.pathname) {
        case "/page":
          return new Response(PAGE_HTML, { headers: { "content-type": "text/html; charset=utf-8" } });
        case "/same":
          return Response.redirect(`http://127.0.0.1:${port}/page`, 302);
        case "/cross":
          return Response.redirect(`http://localhost:${port}/page`, 302);
        case "/loop":
          return Response.redirect(`http://127.0.0.1:${port}/loop`, 302);
        case "/json":
          return Response.json({ answer: 42 });
        case "/binary":
          return new Response(new Uint8Array([0, 1, 2, 3]), { headers: { "content-type": "application/pdf" } });
        case "/long":
          return new Response("abcdefghij".repeat(25_000), { headers: { "content-type": "text/plain" } });
        case "/huge":
          return new Response("x".repeat(20_000_000), { headers: { "content-type": "text/plain" } });
        case "/endless":
          return new Response(
            new ReadableStream({
              pull(controller) {
                controller.enqueue(new TextEncoder().encode("y".repeat(65_536)));
              },
            }),
            { headers: { "content-type": "text/plain" } },
          );
        case "/bomb":
          return new Response(bomb, { headers: { "content-type": "text/plain", "content-encoding": "gzip" } });
        case "/silent":
          return never;
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
  return { port: server.port!, url: (path) => `http://127.0.0.1:${server.port}${path}`, seen, stop: () => server.stop(true) };
}
