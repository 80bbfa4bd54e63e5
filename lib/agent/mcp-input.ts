/**
 * The MCP registry as the input layer sees it (input/input-shapes.ts `McpInput`): server names, prompts
 * for `/mcp__server__prompt`, and resources for `@server:uri` mentions, a served skill's files
 * verified against their manifest (skills/mentions.ts).
 */
import type { McpRegistry } from "../mcp/registry/registry.ts";
import { errorMessage } from "../shared/values.ts";
import { InputError, type McpInput, type McpPromptInfo } from "./input/input-shapes.ts";
import { readMentioned } from "./skills/mentions.ts";

/** `registry` behind the input layer's interface; a failed prompts/list is an InputError naming the server. */
export function mcpInputOf(registry: McpRegistry): McpInput {
  return {
    serverNames: () => registry.snapshot().map((s) => s.name),
    isConnected: (name) => registry.isConnected(name),
    listPrompts: (name) =>
      registry.prompts(name).catch((err: unknown) => {
        throw new InputError(`MCP server "${name}": prompts/list failed: ${errorMessage(err)}`);
      }) as Promise<readonly McpPromptInfo[]>,
    getPrompt: (server, name, args) => registry.getPrompt(server, name, args) as Promise<{ messages?: unknown[] }>,
    readResource: (server, uri) => readMentioned(registry, server, uri),
  };
}
