/**
 * Shapes shared by the input layer's files (input.ts, mentions.ts, mcp-prompts.ts).
 */
import type { TextBlock } from "../messages.ts";

/** Input that cannot become a message: an unknown command, a missing argument, a failed read. One line, fit for stderr. */
export class InputError extends Error {}

/** A `/name` that no command, skill or prompt answers: the mode may say more about `command` (print mode names the session's). */
export class UnknownCommandError extends InputError {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What the input layer needs of the run's skills (lib/agent/skills): `/name args` as the blocks
 * of the user message, or undefined when no skill has that name.
 * @throws InputError for a skill the user may not run, or one that failed to load.
 */
export interface SkillInput {
  run(name: string, args: string): Promise<TextBlock[]> | undefined;
}

/** What the input layer needs from the MCP registry. */
export interface McpInput {
  /** Configured server names, connected or not. */
  serverNames(): string[];
  isConnected(server: string): boolean;
  /** The server's prompts: the start-up list, or asked now when it declared none (MCP server/prompts). */
  listPrompts(server: string): Promise<readonly McpPromptInfo[]>;
  /** `prompts/get`. @throws on a JSON-RPC error */
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<{ messages?: unknown[] }>;
  /** `resources/read`. @throws on a JSON-RPC error */
  readResource(server: string, uri: string): Promise<{ contents?: unknown[] }>;
}

export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}
