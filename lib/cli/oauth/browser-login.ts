/**
 * Where a person completes an MCP server's login (MCP 2025-11-25 basic/authorization, the
 * browser part): the authorization URL is always printed on stderr, opened with `$BROWSER` when
 * set, else the platform's opener, and the redirect arrives on a loopback callback. On a terminal
 * the final redirect URL may also be pasted back, for a browser on another machine that cannot
 * reach 127.0.0.1. Nothing here runs in `-p`: print mode passes no interaction at all.
 */
import { createInterface } from "node:readline";
import type { LoginInteraction, PendingLogin } from "../../mcp/auth/authorization-code.ts";
import { startCallbackServer } from "../../mcp/auth/callback-server.ts";
import { openBrowser } from "../io/open-browser.ts";

/** How long a login may wait for the browser (ms). */
export const LOGIN_TIMEOUT_MS = 300_000;

export interface LoginEnvironment {
  env?: Record<string, string | undefined>;
  /** A person at a terminal (stdin and stderr are TTYs). */
  terminal?: boolean;
  stderr?: (line: string) => void;
}

/**
 * The interaction for this run, or undefined when nobody could complete a login (no terminal and
 * no `$BROWSER`): then a server that needs one is reported, never waited for.
 */
export function loginInteraction(opts: LoginEnvironment = {}): LoginInteraction | undefined {
  const env = opts.env ?? process.env;
  const terminal = opts.terminal ?? Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const stderr = opts.stderr ?? ((line: string) => process.stderr.write(line + "\n"));
  if (!env.BROWSER && !terminal) return undefined;
  return {
    async begin(server: string, port?: number, preferredPort?: number): Promise<PendingLogin> {
      let callback: ReturnType<typeof startCallbackServer>;
      try {
        callback = startCallbackServer(port ?? preferredPort);
      } catch (err) {
        if (port !== undefined || preferredPort === undefined) throw err;
        callback = startCallbackServer(0);
      }
      return {
        redirectUri: callback.redirectUri,
        async complete(url: URL, state: string): Promise<URL> {
          stderr(`Log in to MCP server "${server}": ${url.href}`);
          const opened = openBrowser(url.href, env);
          if (!opened) stderr("(no browser to open: open the URL above yourself)");
          if (terminal) stderr(`If that browser cannot reach ${new URL(callback.redirectUri).host}, paste the address it ends on here and press Enter.`);
          const waits: Promise<URL>[] = [callback.next(state)];
          const paste = terminal ? pastedCallback(state) : undefined;
          if (paste) waits.push(paste.url);
          let timer: Timer | undefined;
          waits.push(
            new Promise<URL>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no login for MCP server "${server}" within ${LOGIN_TIMEOUT_MS / 1000} s`)), LOGIN_TIMEOUT_MS);
            }),
          );
          try {
            return await Promise.race(waits);
          } finally {
            clearTimeout(timer);
            paste?.stop();
          }
        },
        close: () => callback.close(),
      };
    },
  };
}

/** Lines typed on the terminal until one is a URL carrying `state`. */
function pastedCallback(state: string): { url: Promise<URL>; stop: () => void } {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const url = new Promise<URL>((resolve) => {
    rl.on("line", (line) => {
      try {
        const u = new URL(line.trim());
        if (u.searchParams.get("state") === state) resolve(u);
        else process.stderr.write("That address is not this login's redirect (state does not match); paste the one the browser ends on.\n");
      } catch {
        if (line.trim()) process.stderr.write("Not a URL; paste the full address the browser ends on.\n");
      }
    });
  });
  return {
    url,
    stop: () => {
      rl.close();
      process.stdin.pause();
    },
  };
}
