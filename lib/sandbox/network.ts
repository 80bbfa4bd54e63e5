/**
 * A sandboxed command's way out: the proxy variables set inside (curl reads only lowercase
 * `http_proxy` for http:// URLs, so both cases), and the launcher that starts the bridge
 * (bridge.ts) and waits for its `ready` before it runs the command, so no first connection races it.
 */
import { resolve } from "node:path";

/** Our own executable as the bridge's command: the compiled binary itself, or Bun with index.ts when run from source. */
export function ownBridgeCommand(): string[] {
  if (Bun.main.startsWith("/$bunfs/") || Bun.main.startsWith("B:/~BUN/")) return [process.execPath];
  return [process.execPath, resolve(import.meta.dir, "../../index.ts")];
}

/** The proxy's address inside the namespace, in every variable programs read. */
export function proxyEnv(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = { NO_PROXY: "", no_proxy: "" };
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) {
    env[name] = url;
    env[name.toLowerCase()] = url;
  }
  return env;
}

/**
 * Bash: run the bridge (the arguments before `--`) with its stdout on a pipe, wait for its first
 * line, then exec the command (the arguments after `--`). A bridge that did not start is exit 126.
 */
export const LAUNCHER =
  'b=(); while [ "$1" != -- ]; do b+=("$1"); shift; done; shift; read -r ready < <("${b[@]}" 2>/dev/null); ' +
  '[ "$ready" = ready ] || { echo "sandbox: the network bridge did not start" >&2; exit 126; }; exec "$@"';

/** `argv` preceded by the launcher that starts `bridge` (our executable, with its arguments) on `port` for `socket`. */
export function withBridge(argv: string[], bridge: string[], port: number, socket: string): string[] {
  return ["/bin/bash", "-c", LAUNCHER, "sandbox-launcher", ...bridge, "__sandbox-bridge", String(port), socket, "--", ...argv];
}
