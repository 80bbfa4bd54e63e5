/**
 * A conformance client for the auth scenarios, driving our OAuth provider over plain HTTP POSTs
 * (initialize, tools/list, tools/call). It exercises lib/mcp/auth exactly as a transport does,
 * with the real loopback login and the `$BROWSER` stand-in. A server that refuses `initialize`
 * (any JSON-RPC error) is spoken to in MCP 2026-07-28 (no initialize, the `_meta` envelope on every
 * request): just enough of that revision to reach its authorization. Usage: auth-client.ts <server-url>.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loginInteraction } from "../../lib/cli/oauth/browser-login.ts";
import { parseOAuthConfig } from "../../lib/mcp/auth/oauth-block.ts";
import { OAuthProvider } from "../../lib/mcp/auth/oauth-provider.ts";
import { TokenStore } from "../../lib/mcp/auth/store.ts";
import { entryFor } from "./context.ts";

const url = process.argv[2]!;
const entry = entryFor(url, process.env.MCP_CONFORMANCE_CONTEXT);
const cfg = parseOAuthConfig(entry.oauth);
if (typeof cfg === "string") throw new Error(cfg);
const dir = process.env.CLAUDE_CONFIG_DIR ?? mkdtempSync(join(tmpdir(), "conf-oauth-"));
const log = (line: string) => process.stderr.write(line + "\n");
const provider = new OAuthProvider({
  server: "conformance",
  url,
  oauth: cfg,
  store: new TokenStore(join(dir, "mcp-oauth.json")),
  interaction: loginInteraction({ terminal: false }),
  debug: log,
});

let session: string | undefined;
let nextId = 1;
let version = "2025-11-25";
const MODERN = "2026-07-28";

async function post(message: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  for (;;) {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
    };
    const credentials = await provider.headers({ method: "POST", url });
    Object.assign(headers, credentials);
    const authorization = credentials.Authorization;
    if (session) headers["mcp-session-id"] = session;
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
    if (res.status === 401 || res.status === 403) {
      if (await provider.onChallenge(res, { url, method: "POST", authorization })) continue;
      throw new Error(`HTTP ${res.status}`);
    }
    session = res.headers.get("mcp-session-id") ?? session;
    if (res.status === 400 && message.method === "initialize") return (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    const text = await res.text();
    if (!("id" in message) || !text) return undefined;
    if (res.headers.get("content-type")?.includes("text/event-stream")) {
      for (const line of text.split("\n")) {
        if (!line.startsWith("data:")) continue;
        const msg = JSON.parse(line.slice(5)) as Record<string, unknown>;
        if (msg.id === message.id) return msg;
      }
      return undefined;
    }
    return JSON.parse(text) as Record<string, unknown>;
  }
}

function request(method: string, params: Record<string, unknown> = {}) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "1.0.0" },
  };
  return post({ jsonrpc: "2.0", id: nextId++, method, params: version === MODERN ? { ...params, _meta: meta } : params });
}

const init = await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "1.0.0" } });
if (init?.error) {
  // A modern-only server may refuse initialize with any code: server/discover settles it.
  version = MODERN;
  const discovered = await request("server/discover");
  if (!discovered?.result) throw new Error(`initialize and server/discover refused: ${JSON.stringify(init.error)}`);
} else await post({ jsonrpc: "2.0", method: "notifications/initialized" });
const list = await request("tools/list");
const tools = ((list?.result as { tools?: { name: string }[] })?.tools ?? []).map((t) => t.name);
if (tools.includes("test-tool")) await request("tools/call", { name: "test-tool", arguments: {} });
log(`tools: ${tools.join(", ")}`);
