/**
 * Permission prompts of the interactive session (the loop's `canUseTool` hook), as in Claude
 * Code: a tool that declares `asksPermission: false` (Read, Glob, Grep) never asks; every other tool (Bash, Write, Edit, MCP tools) shows what
 * it will do (permission-preview.ts) and asks `Allow <title>? [y]es / [n]o / [a]lways for this tool`
 * unless it is allowed by --allowedTools, an earlier "always", or --dangerously-skip-permissions.
 * `n` may carry a reason for the model (`n use the other file`). Print mode never asks.
 */
import type { Tool } from "../../tools/tool.ts";
import type { PermissionDecision } from "../../agent/loop.ts";
import type { Preview } from "../ui/permission-preview.ts";
import { shortArgs } from "../ui/tool-lines.ts";
import { isAllowed, type RuleMatcher } from "../../agent/permissions.ts";

export type Answer = "yes" | "no" | "always";

/**
 * `y`/`yes`, `n`/`no`, `a`/`always` (any case); `n` or `no` followed by a sentence (after a space,
 * a comma or a colon) is a refusal with that reason. Undefined for anything else.
 */
export function parseAnswer(text: string): { answer: Answer; reason?: string } | undefined {
  const t = text.trim();
  const lower = t.toLowerCase();
  if (lower === "y" || lower === "yes") return { answer: "yes" };
  if (lower === "a" || lower === "always") return { answer: "always" };
  const refusal = /^no?(?:$|[\s,:;.!-]+(.*))$/is.exec(t);
  if (refusal) return refusal[1]?.trim() ? { answer: "no", reason: refusal[1].trim() } : { answer: "no" };
  return undefined;
}

export interface PermissionOptions {
  cwd: string;
  /** --allowedTools; "always" answers are added to it. */
  allowed: Set<string>;
  skipAll: boolean;
  /** The turn's signal: once aborted, queued questions are not asked and the call is refused. */
  signal: AbortSignal;
  /** Shows `body` and a question; resolves with the typed line, or null when the user interrupted. */
  ask(question: string, body: string[]): Promise<string | null>;
  /** What the call will do (the title and lines shown above the question); `Name(args)` alone by default. */
  preview?(tool: Tool, input: Record<string, unknown>): Preview;
  /** Called when the user pressed Ctrl-C at the question: the turn is interrupted. */
  onInterrupt(): void;
  /** How a rule names a tool (AgentRuntime.matchesRule). */
  matches: RuleMatcher;
  /** Tools a skill loaded in this turn lets run without asking (its allowed-tools). */
  granted?(): string[];
}

/**
 * The `canUseTool` hook for one turn: true to run; false, or a deny carrying the user's reason, to refuse.
 * Questions are asked one at a time (concurrent read-only MCP calls may both need one); an
 * unclear answer asks again; an interrupt refuses and interrupts the turn.
 */
export function permissionHook(opts: PermissionOptions): (tool: Tool, input: Record<string, unknown>) => Promise<PermissionDecision> {
  let queue: Promise<unknown> = Promise.resolve();
  const decide = async (tool: Tool, input: Record<string, unknown>): Promise<PermissionDecision> => {
    if (opts.skipAll || tool.asksPermission === false || isAllowed(tool.name, [...opts.allowed, ...(opts.granted?.() ?? [])], opts.matches)) return true;
    if (opts.signal.aborted) return false;
    const preview = opts.preview?.(tool, input) ?? { title: `${tool.name}(${shortArgs(tool.name, input, opts.cwd, tool)})`, body: [] };
    const question = `Allow ${preview.title}? [y]es / [n]o / [a]lways for this tool `;
    let body = preview.body;
    for (;;) {
      const line = await opts.ask(question, body);
      body = [];
      if (line === null) {
        opts.onInterrupt();
        return false;
      }
      const parsed = parseAnswer(line);
      if (parsed?.answer === "always") opts.allowed.add(tool.name);
      if (!parsed) continue;
      if (parsed.answer !== "no") return true;
      return parsed.reason ? { behavior: "deny", message: `The user refused to run ${tool.name}. They said: ${parsed.reason}` } : false;
    }
  };
  return (tool, input) => {
    const turn = queue.then(() => decide(tool, input));
    queue = turn.catch(() => undefined);
    return turn;
  };
}
