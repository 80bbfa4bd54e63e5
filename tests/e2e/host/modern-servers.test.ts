/**
 * Host mode with a 2026-07-28 server (MCP 2026-07-28 beside 2025-11-25): the official Agent SDK
 * drives our executable, whose `mcpServers` name the TypeScript SDK v2 strict stdio server
 * (fixtures/servers/sdk2-server.ts, `legacy: 'reject'`); the model calls its tool.
 */
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { type Options, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { type ModelServer, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { BUN, baseEnv, PROGRAM, ROOT, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

test("a modern-only stdio server is connected and its tool called through the Agent SDK", async () => {
  server = startModelServer([reply(toolUse("mcp__m__shout", { text: "host" })), reply(text("done"))]);
  const env = { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
  const m = { command: BUN, args: [join(ROOT, "fixtures/servers/sdk2-server.ts"), "stdio", "--strict"] };
  const messages: SDKMessage[] = [];
  for await (const message of query({ prompt: "shout", options: { pathToClaudeCodeExecutable: PROGRAM, cwd: tempDir(), env, mcpServers: { m } } as Options })) {
    messages.push(message);
  }
  const init = messages.find((x) => x.type === "system" && x.subtype === "init") as { mcp_servers?: unknown } | undefined;
  expect(init?.mcp_servers).toEqual([{ name: "m", status: "connected" }]);
  expect(JSON.stringify(server.requests[1]!.body.messages.at(-1).content[0].content)).toContain("HOST");
  expect((messages.find((x) => x.type === "result") as { result?: string }).result).toBe("done");
}, 60_000);
