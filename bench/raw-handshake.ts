/**
 * Baseline for "launch → first model request": the least a program must do before its first
 * model request when MCP servers are configured, with no agent and no JSON-RPC layer. It reads
 * `.mcp.json` in the working directory, spawns every server concurrently, runs each handshake
 * (MCP 2025-11-25, basic/lifecycle: initialize → response → notifications/initialized →
 * tools/list → response) with hand-built lines, then POSTs one Messages API request to
 * $ANTHROPIC_BASE_URL and exits. Exit 1 with one stderr line when anything fails.
 *
 * Usage (from bench/run.ts, compiled like the agent): cd DIR && raw-handshake
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface RawServer {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

const INITIALIZE = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-handshake","version":"1.0.0"}}}\n`;
const INITIALIZED = `{"jsonrpc":"2.0","method":"notifications/initialized"}\n`;
const TOOLS_LIST = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}\n`;

/**
 * Spawns `server` and completes its handshake. Resolves with the number of tools listed and a
 * function that closes the server's stdin. Lines that are not the awaited response (logs,
 * notifications) are skipped.
 * @throws Error naming the server when it exits first or answers with an error.
 */
export async function rawHandshake(name: string, server: RawServer, cwd: string): Promise<{ tools: number; close: () => void }> {
  const proc = Bun.spawn([server.command, ...(server.args ?? [])], {
    cwd,
    env: { ...process.env, ...server.env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const responseTo = async (id: number): Promise<Record<string, unknown>> => {
    for (;;) {
      let nl: number;
      while ((nl = buffered.indexOf("\n")) !== -1) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let message: Record<string, unknown>;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id !== id) continue;
        if (message.error) throw new Error(`server "${name}": error response to request ${id}: ${JSON.stringify(message.error)}`);
        return message.result as Record<string, unknown>;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error(`server "${name}" closed its output during the handshake`);
      buffered += decoder.decode(value, { stream: true });
    }
  };
  proc.stdin.write(INITIALIZE(0));
  proc.stdin.flush();
  await responseTo(0);
  proc.stdin.write(INITIALIZED + TOOLS_LIST(1));
  proc.stdin.flush();
  const listed = await responseTo(1);
  reader.releaseLock();
  return { tools: Array.isArray(listed.tools) ? listed.tools.length : 0, close: () => void proc.stdin.end() };
}

async function main(): Promise<void> {
  const cwd = process.cwd();
  const config = JSON.parse(readFileSync(join(cwd, ".mcp.json"), "utf8")) as { mcpServers: Record<string, RawServer> };
  const sessions = await Promise.all(Object.entries(config.mcpServers).map(([name, server]) => rawHandshake(name, server, cwd)));
  const base = process.env.ANTHROPIC_BASE_URL;
  if (!base) throw new Error("ANTHROPIC_BASE_URL is not set");
  const response = await fetch(`${base.replace(/\/$/, "")}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": process.env.ANTHROPIC_API_KEY ?? "", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "baseline", max_tokens: 16, messages: [{ role: "user", content: "hi" }] }),
  });
  await response.arrayBuffer();
  for (const session of sessions) session.close();
}

if (import.meta.main) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`raw-handshake: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
