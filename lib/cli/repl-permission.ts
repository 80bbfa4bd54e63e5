/**
 * Permission prompts of the interactive session (the loop's `canUseTool` hook), as in Claude
 * Code: a tool that declares `asksPermission: false` (Read, Glob, Grep) never asks; every other
 * tool (Bash, Write, Edit, MCP tools) asks
 * `Allow <tool> <args>? [y]es / [n]o / [a]lways for this tool` unless it is allowed by
 * --allowedTools, an earlier "always", or --dangerously-skip-permissions. Print mode never asks.
 */
import type { Tool } from "../tools/tool.ts";
import { shortArgs } from "./ui-tool-lines.ts";

/** True when one of `allowed` (--allowedTools entries and "always" answers) names `toolName`, as `matches` decides. */
export function isAllowed(toolName: string, allowed: Iterable<string>, matches: RuleMatcher): boolean {
  for (const rule of allowed) if (matches(toolName, rule)) return true;
  return false;
}

/** Whether a rule names a tool; the session's matcher also knows MCP names as the config wrote them. */
export type RuleMatcher = (toolName: string, rule: string) => boolean;

export type Answer = "yes" | "no" | "always";

/** `y`/`yes`, `n`/`no`, `a`/`always` (any case); undefined for anything else. */
export function parseAnswer(text: string): Answer | undefined {
  const t = text.trim().toLowerCase();
  if (t === "y" || t === "yes") return "yes";
  if (t === "n" || t === "no") return "no";
  if (t === "a" || t === "always") return "always";
  return undefined;
}

export interface PermissionOptions {
  cwd: string;
  /** --allowedTools; "always" answers are added to it. */
  allowed: Set<string>;
  skipAll: boolean;
  /** The turn's signal: once aborted, queued questions are not asked and the call is refused. */
  signal: AbortSignal;
  /** Shows a question and resolves with the typed line, or null when the user pressed Ctrl-C. */
  ask(question: string): Promise<string | null>;
  /** Called when the user pressed Ctrl-C at the question: the turn is interrupted. */
  onInterrupt(): void;
  /** How a rule names a tool (AgentRuntime.matchesRule). */
  matches: RuleMatcher;
}

/**
 * The `canUseTool` hook for one turn. Questions are asked one at a time (concurrent read-only MCP calls may
 * both need one); an unclear answer asks again; Ctrl-C refuses and interrupts the turn.
 */
export function permissionHook(opts: PermissionOptions): (tool: Tool, input: Record<string, unknown>) => Promise<boolean> {
  let queue: Promise<unknown> = Promise.resolve();
  const decide = async (tool: Tool, input: Record<string, unknown>): Promise<boolean> => {
    if (opts.skipAll || tool.asksPermission === false || isAllowed(tool.name, opts.allowed, opts.matches)) return true;
    if (opts.signal.aborted) return false;
    const question = `Allow ${tool.name} ${shortArgs(tool.name, input, opts.cwd, tool)}? [y]es / [n]o / [a]lways for this tool `;
    for (;;) {
      const line = await opts.ask(question);
      if (line === null) {
        opts.onInterrupt();
        return false;
      }
      const answer = parseAnswer(line);
      if (answer === "always") opts.allowed.add(tool.name);
      if (answer) return answer !== "no";
    }
  };
  return (tool, input) => {
    const turn = queue.then(() => decide(tool, input));
    queue = turn.catch(() => undefined);
    return turn;
  };
}
