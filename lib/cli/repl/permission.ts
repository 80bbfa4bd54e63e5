/**
 * Permission prompts of the interactive session (the loop's `canUseTool` hook), as in Claude
 * Code: a tool that declares `asksPermission: false` (Read, Glob, Grep) never asks; every other tool (Bash, Write, Edit, MCP tools) shows what
 * it will do (permission-preview.ts) and asks `Allow <title>? [y]es / [n]o / [a]lways: <what is kept>`
 * (always.ts: a saved Bash prefix or MCP rule, or acceptEdits; none for a compound command)
 * unless it is allowed by --allowedTools, an earlier "always", or --dangerously-skip-permissions.
 * `n` may carry a reason for the model (`n use the other file`). Print mode never asks.
 */
import type { Tool } from "../../tools/tool.ts";
import type { PermissionDecision } from "../../agent/loop.ts";
import type { Preview } from "../ui/permission-preview.ts";
import { shortArgs } from "../ui/tool-lines.ts";
import { isAllowed, type RuleMatcher } from "../../agent/permissions.ts";
import type { AlwaysStore } from "./always.ts";

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
  /** Whether a scoped allowed-tools rule of such a skill (`Bash(git:*)`) lets this call run. */
  grantsCall?(tool: Tool, input: Record<string, unknown>): boolean;
  /** What `[a]lways` keeps (always.ts); absent: it allows the tool for the session. */
  always?: AlwaysStore;
}

/**
 * The `canUseTool` hook for one turn: true to run; false, or a deny carrying the user's reason, to refuse.
 * Questions are asked one at a time (concurrent read-only MCP calls may both need one); an
 * unclear answer asks again; an interrupt refuses and interrupts the turn.
 */
export function permissionHook(
  opts: PermissionOptions,
): (tool: Tool, input: Record<string, unknown>, call?: unknown, forced?: boolean) => Promise<PermissionDecision> {
  let queue: Promise<unknown> = Promise.resolve();
  const decide = async (tool: Tool, input: Record<string, unknown>, forced: boolean): Promise<PermissionDecision> => {
    // `forced`: a settings ask rule or hook, which asks even past --allowedTools, a skill's grants, "always" and skipped permissions.
    const allowed = [...opts.allowed, ...(opts.granted?.() ?? [])];
    await opts.always?.ready(tool);
    if (
      !forced &&
      (opts.skipAll ||
        tool.asksPermission === false ||
        isAllowed(tool.name, allowed, opts.matches) ||
        opts.grantsCall?.(tool, input) ||
        opts.always?.allows(tool, input))
    )
      return true;
    if (opts.signal.aborted) return false;
    const preview = opts.preview?.(tool, input) ?? { title: `${tool.name}(${shortArgs(tool.name, input, opts.cwd, tool)})`, body: [] };
    // A call an ask rule or hook asked about gets no always: it asks each time.
    await opts.always?.ready(tool, true);
    const offer = forced ? undefined : opts.always?.offer(tool, input);
    // A compound or wrapped command, or one that writes through a redirect, gets no always: no saved prefix could vouch for it.
    const third = forced ? "" : !opts.always ? " / [a]lways for this tool" : offer ? ` / ${opts.always.label(offer)}` : "";
    const question = `Allow ${preview.title}? [y]es / [n]o${third} `;
    let body = preview.body;
    for (;;) {
      const line = await opts.ask(question, body);
      body = [];
      if (line === null) {
        opts.onInterrupt();
        return false;
      }
      const parsed = parseAnswer(line);
      if (parsed?.answer === "always" && (forced || (opts.always && !offer))) continue;
      if (parsed?.answer === "always") {
        if (offer) opts.always!.keep(offer, opts.allowed);
        else opts.allowed.add(tool.name);
      }
      if (!parsed) continue;
      if (parsed.answer !== "no") return true;
      return parsed.reason ? { behavior: "deny", message: `The user refused to run ${tool.name}. They said: ${parsed.reason}` } : false;
    }
  };
  return (tool, input, _call, forced = false) => {
    const turn = queue.then(() => decide(tool, input, forced));
    queue = turn.catch(() => undefined);
    return turn;
  };
}
