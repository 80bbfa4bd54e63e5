/**
 * The one input path for `-p` and the interactive session. User text becomes either a built-in
 * command or a user message with attachments:
 * - `/name args`: built-in, a skill (before a custom command of the same name, as in Claude Code),
 *   custom (`.claude/commands`), or an MCP prompt `/mcp__<server>__<prompt>`;
 * - `@path` / `@"path with spaces"`: a file's content or a folder's listing;
 * - `@<server>:<uri>`: an MCP resource.
 * Every attachment is a separate text block in the same format, naming its source.
 */
import type { ContentBlock, TextBlock } from "../messages.ts";
import { expandCommand, findCustomCommand } from "./custom-commands.ts";
import { shellWords } from "./shell-words.ts";
import { mentionAttachments } from "./mentions.ts";
import { type McpInput, type SkillInput, UnknownCommandError } from "./input-shapes.ts";
import { expandMcpPrompt } from "./mcp-prompts.ts";

export { InputError, type McpInput, UnknownCommandError } from "./input-shapes.ts";

export type ParsedInput = { kind: "message"; content: ContentBlock[] } | { kind: "builtin"; name: string; args: string };

export interface InputContext {
  cwd: string;
  /** Built-in commands this mode handles itself (/help, /exit …). */
  builtins: ReadonlySet<string>;
  mcp?: McpInput;
  /** The run's skills, when it has any. */
  skills?: SkillInput;
  /** Receives one-line hints about input that goes to the model as written (a mention naming no server). */
  warn?: (line: string) => void;
  /** True for an absolute path a Read deny rule covers: its `@file` mention is not attached (settings' permissions). */
  readDenied?: (path: string) => boolean;
}

/**
 * Parses one user input.
 * @throws InputError, with a one-line message fit for stderr.
 */
export async function parseInput(text: string, ctx: InputContext): Promise<ParsedInput> {
  const command = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  let prompt = text;
  if (command) {
    const [, name, rawArgs = ""] = command as unknown as [string, string, string | undefined];
    const args = rawArgs.trim();
    if (ctx.builtins.has(name)) return { kind: "builtin", name, args };
    const skill = ctx.skills?.run(name, args);
    if (skill) return { kind: "message", content: await skill };
    if (name.startsWith("mcp__") && ctx.mcp) {
      const blocks = await expandMcpPrompt(name, args, ctx.mcp);
      if (blocks) return { kind: "message", content: blocks };
    }
    const custom = findCustomCommand(name, ctx.cwd);
    if (!custom) throw new UnknownCommandError(name, `unknown command: /${name} (try /help)`);
    prompt = expandCommand(custom.body, args, shellWords(args));
  }
  const attachments = await mentionAttachments(prompt, ctx.cwd, ctx.mcp, ctx.warn, ctx.readDenied);
  const head: TextBlock = { type: "text", text: prompt };
  return { kind: "message", content: [head, ...attachments] };
}
