/**
 * The lines a person reads about MCP servers on stderr: a failure (at start-up or mid-run), a
 * server's stderr under --verbose, and the JSON-RPC trace under --debug. The registry reports
 * events; only this file words them.
 */
import { type FailurePhase, RESTART_LIMIT, type RegistryOptions, type ServerSnapshot } from "../../mcp/registry/registry.ts";
import { stderrSuffix } from "./stderr-tail.ts";
import { commandName } from "../../shared/command-name.ts";

/** What `mcp list`, `/mcp` and the `-p` server table say when no scope names a server (Claude Code's three scopes). */
export const NO_SERVERS = `No MCP servers configured: add one with ${commandName()} mcp add (local, project or user scope), or use .mcp.json or --mcp-config.`;

/** The empty list's line: a config that was there but could not be used is not "nothing configured". */
export function noServersLine(configProblems: number): string {
  return configProblems ? "No MCP servers could be loaded (the lines at start-up say why)." : NO_SERVERS;
}

/** Longest traced message shown, in characters. */
const TRACE_CHARS = 2000;

/**
 * `MCP server "x" failed to start: <reason> (stderr: …)` at start-up, `MCP server "x" <reason> (stderr: …)`
 * when it ended mid-run (the reason then reads "exited with code 1") or failed the handshake after
 * initialize (the reason reads "failed the handshake: tools/list answered MCP error -32603: fetch failed").
 * A mid-run end says in the same line what happens next, `; its next call restarts it (restart 1 of
 * at most 3 in 5 minutes)`: one line per death, the restart itself says nothing more. A one-shot
 * command (`mcp call`) makes no next call, so it is told `restarts: false` and promises nothing.
 */
export function failureLine(server: ServerSnapshot, phase: FailurePhase, restarts = true): string {
  // `MCP server "x" needs authentication: run ./your_program.sh mcp login x`, the same in -p, mcp and /mcp.
  if (server.needsAuth) return `MCP server "${server.name}" ${server.error}`;
  // A handshake failure's reason starts "failed the handshake: …" already.
  const what = phase === "start" ? `failed to start: ${server.error}` : server.error;
  const next =
    restarts && phase === "exit" && server.nextRestart
      ? `; its next call restarts it (restart ${server.nextRestart} of at most ${RESTART_LIMIT} in 5 minutes)`
      : "";
  return `MCP server "${server.name}" ${what}${stderrSuffix(server.stderr)}${next}`;
}

/** `[server] → {…}` (sent) or `[server] ← {…}` (received), cut at 2000 characters. */
export function traceLine(server: string, direction: "send" | "receive", message: string): string {
  return `[${server}] ${direction === "send" ? "→" : "←"} ${message.slice(0, TRACE_CHARS)}`;
}

/**
 * The registry's reporting callbacks, writing through `log`: failures always, servers' stderr
 * lines with `verbose`, every JSON-RPC message with `debug`; `restarts: false` for a run that makes
 * no further call (the `mcp` inspector's one request).
 */
export function mcpReporter(
  log: (line: string) => void,
  { verbose = false, debug = false, restarts = true }: { verbose?: boolean; debug?: boolean; restarts?: boolean },
): Pick<RegistryOptions, "onServerFailed" | "onStderrLine" | "onTrace"> {
  return {
    onServerFailed: (server, phase) => log(failureLine(server, phase, restarts)),
    onStderrLine: verbose ? (server, line) => log(`[${server}] ${line}`) : undefined,
    onTrace: debug ? (server, direction, message) => log(traceLine(server, direction, message)) : undefined,
  };
}
