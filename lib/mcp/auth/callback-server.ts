/**
 * The loopback redirect URI of a login (RFC 8252 §7.3): `http://127.0.0.1:<port>/callback`, on
 * the configured port or a free one. It answers the browser with a short page and hands the
 * callback URL to whoever waits for it; a callback whose `state` is not the expected one is
 * answered 400 and discarded (SA-27), so a stray or forged redirect cannot end the login.
 */

export interface CallbackServer {
  redirectUri: string;
  /** Resolves with the first callback URL carrying `state` (or an `error` with that state). */
  next(state: string): Promise<URL>;
  close(): void;
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>Login</title><body style="font-family:sans-serif;margin:3em">${text}</body>`;

/**
 * Listens on 127.0.0.1.
 * @throws Error `callback port N is in use` (or the system's reason) when it cannot listen.
 */
export function startCallbackServer(port = 0): CallbackServer {
  let expected: string | undefined;
  let deliver: ((url: URL) => void) | undefined;
  const early: URL[] = [];
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      fetch(req) {
        const url = new URL(req.url);
        if (url.pathname !== "/callback") return new Response("Not found", { status: 404 });
        const state = url.searchParams.get("state");
        if (expected === undefined) {
          early.push(url);
          return html("Login received. You can close this window.");
        }
        if (state !== expected) return html("This login link is not the one in progress (state mismatch). Start the login again.", 400);
        deliver?.(url);
        const failed = url.searchParams.get("error");
        return html(
          failed ? `Login refused: ${escapeHtml(failed)}. You can close this window.` : "Logged in. You can close this window and return to the terminal.",
        );
      },
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === "EADDRINUSE"
        ? `callback port ${port} on 127.0.0.1 is in use`
        : `cannot listen on 127.0.0.1:${port} for the login callback: ${(err as Error).message}`,
    );
  }
  return {
    redirectUri: `http://127.0.0.1:${server.port}/callback`,
    next(state: string) {
      expected = state;
      const ready = early.find((u) => u.searchParams.get("state") === state);
      if (ready) return Promise.resolve(ready);
      return new Promise<URL>((resolve) => {
        deliver = resolve;
      });
    },
    close() {
      server.stop(true);
    },
  };
}

function html(text: string, status = 200): Response {
  return new Response(PAGE(text), { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
