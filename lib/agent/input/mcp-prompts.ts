/**
 * MCP prompts as slash commands (MCP 2025-11-25 server/prompts): `/mcp__<server>__<prompt> args`.
 * Words map positionally onto the prompt's declared `arguments`; words beyond the last argument
 * join it; absent optional arguments are omitted. The returned `messages` become the user message.
 */
import { promptMessagesToBlocks } from "../mcp/content.ts";
import type { ContentBlock } from "../messages.ts";
import { InputError, type McpInput, type McpPromptInfo } from "./input-shapes.ts";
import { shellWords } from "./shell-words.ts";
import { errorMessage } from "../../shared/values.ts";
import { promptCommandPrefix, promptCommands } from "../mcp/names.ts";

/** The usage line for a prompt: `usage: /mcp__jira__create <title> [priority]`. */
export function promptUsage(command: string, prompt: McpPromptInfo): string {
  const args = (prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
  return ["usage: /" + command, ...args].join(" ");
}

/** Positional words → named arguments. Returns the missing required argument names too. */
export function mapPromptArguments(prompt: McpPromptInfo, words: string[]): { args: Record<string, string>; missing: string[] } {
  const declared = prompt.arguments ?? [];
  const args: Record<string, string> = {};
  declared.forEach((a, i) => {
    const value = i === declared.length - 1 ? words.slice(i).join(" ") : words[i];
    if (value !== undefined && value !== "") args[a.name] = value;
  });
  const missing = declared.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  return { args, missing };
}

/**
 * Expands `/mcp__<server>__<prompt>`, found through the server's command table (names.ts), so a
 * prompt named `weekly report` or `a/b` is reached by the name `/help` shows; undefined when the
 * name matches no configured server's prefix at all (the caller then reports an unknown command).
 * The prompt's messages become the blocks of one user message, in order (see promptMessagesToBlocks).
 * @throws InputError for a missing required argument, a failed prompts/get, or a prompt with no
 * content at all (the Messages API refuses an empty user message).
 */
export async function expandMcpPrompt(name: string, rawArgs: string, mcp: McpInput): Promise<ContentBlock[] | undefined> {
  // Server names may contain "__": the longest configured name that fits comes first.
  const candidates = mcp
    .serverNames()
    .filter((s) => name.startsWith(promptCommandPrefix(s)))
    .sort((a, b) => b.length - a.length);
  if (!candidates.length) return undefined;
  let server = candidates[0]!;
  let prompt: McpPromptInfo | undefined;
  for (const candidate of candidates) {
    if (!mcp.isConnected(candidate)) continue;
    prompt = promptCommands(candidate, await mcp.listPrompts(candidate)).get(name);
    server = candidate;
    if (prompt) break;
  }
  if (!mcp.isConnected(server)) throw new InputError(`/${name}: MCP server "${server}" is not connected`);
  if (!prompt) {
    const promptName = name.slice(promptCommandPrefix(server).length);
    throw new InputError(`unknown command: /${name} (server "${server}" has no prompt "${promptName}")`);
  }
  const promptName = prompt.name;
  const { args, missing } = mapPromptArguments(prompt, shellWords(rawArgs));
  if (missing.length) throw new InputError(promptUsage(name, prompt));
  let result: { messages?: unknown[] };
  try {
    result = await mcp.getPrompt(server, promptName, args);
  } catch (err) {
    throw new InputError(`/${name}: prompts/get failed: ${errorMessage(err)}`);
  }
  const blocks = promptMessagesToBlocks(result.messages);
  if (!blocks.length) throw new InputError(`/${name}: prompt returned no content`);
  return blocks;
}
