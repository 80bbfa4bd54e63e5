/**
 * A turn's input as message blocks (turn.ts): host mode's blocks as they are, or typed text through the
 * input path (built-in commands, @mentions, skills) once the servers still connecting are up; and the
 * text a UserPromptSubmit hook sees of it.
 */
import type { ContentBlock } from "../messages.ts";
import { parseInput, InputError } from "../input/input.ts";
import { raceAbort } from "../../shared/async.ts";
import type { TurnInput, TurnMode } from "./turn-shapes.ts";

/** The message's blocks, or the built-in the input names. */
export async function userContent(
  mode: TurnMode,
  turn: TurnInput,
  signal: AbortSignal,
): Promise<ContentBlock[] | { kind: "builtin"; name: string; args: string }> {
  const { runtime } = mode;
  if (Array.isArray(turn.input)) {
    const blocks = turn.input.filter((b) => typeof b === "object" && b !== null && typeof (b as { type?: unknown }).type === "string");
    if (!blocks.length) throw new InputError("user message with no content blocks");
    return blocks;
  }
  const text = turn.input;
  // A turn needs every server that may still connect (each within MCP_TIMEOUT); /mcp and the like do not.
  const builtin = /^\/(\S+)/.exec(text.trim())?.[1];
  if (runtime.connecting.size && !(builtin && mode.builtinsWithoutServers?.has(builtin))) {
    turn.events.onWaitingForServers?.([...runtime.connecting].join(", "));
    await raceAbort(runtime.connected, signal);
  }
  const parsed = await raceAbort(
    parseInput(text, {
      cwd: runtime.opts.cwd,
      builtins: mode.builtins,
      mcp: runtime.mcpInput(),
      skills: runtime.skillInput(),
      warn: turn.events.line,
      readDenied: runtime.opts.settings?.readDenied,
    }),
    signal,
  );
  return parsed.kind === "builtin" ? parsed : parsed.content;
}

/** The text a UserPromptSubmit hook sees: the message's text blocks, joined. */
export function promptText(content: ContentBlock[]): string {
  return content
    .filter((b): b is Extract<ContentBlock, { type: "text" }> => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}
