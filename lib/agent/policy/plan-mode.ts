/**
 * What plan mode lets run (the one decision, decide.ts, applies it): reading and searching (Read,
 * Glob, Grep), MCP tools whose server says `readOnlyHint: true` (every server of a run is one the
 * user configured or approved), Bash commands the read-only classifier accepts
 * (permissions/bash/read-only.ts), Write and Edit of this run's plan file only (never through a
 * symbolic link), and the tools that change nothing outside the conversation (tool search, the
 * Agent tool, whose subagents run under the same policy, the task list, questions, ExitPlanMode).
 * Everything else is refused with a message saying plan mode is on. No model decides.
 */
import type { Tool } from "../../tools/tool.ts";
import { resolvePath } from "../../tools/input.ts";
import { readOnlyProblem } from "../permissions/bash/read-only.ts";
import { planFileLinkProblem } from "../plan/plan-file.ts";

/** Tools that only read, or change nothing outside the conversation and its task list. */
const ALWAYS = new Set([
  "Read",
  "Glob",
  "Grep",
  "ToolSearch",
  "Agent",
  "Skill",
  "StructuredOutput",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskUpdate",
  "TodoWrite",
  "AskUserQuestion",
  "ExitPlanMode",
]);

/** What plan mode says of one call. */
export type PlanCheck = { allowed: true } | { allowed: false; message: string };

export interface PlanFacts {
  /** The call is an MCP tool's (it has a route to a server). */
  mcp: boolean;
  /** The working directory relative paths resolve against. */
  cwd: string;
  /** The directory the next Bash call runs in (a `cd` in an earlier call stays); `cwd` when absent. */
  shellCwd?: string;
  /** This run's plan file (plan/plan-file.ts). */
  planFile: string;
}

const ON = "Plan mode is on";

/** Plan mode's answer for a call of `tool` with `input`. Bash needs the shell grammar loaded (else it refuses). */
export function planCheck(tool: Pick<Tool, "name" | "readOnly">, input: Record<string, unknown>, facts: PlanFacts): PlanCheck {
  if (facts.mcp) {
    return tool.readOnly
      ? { allowed: true }
      : refuse(`${ON}: ${tool.name} is not marked read-only by its server, so it was not called. Keep to reading until the plan is approved.`);
  }
  if (ALWAYS.has(tool.name)) return { allowed: true };
  if (tool.name === "Bash") {
    const problem = readOnlyProblem(String(input.command ?? ""), facts.shellCwd ?? facts.cwd);
    return problem === undefined ? { allowed: true } : refuse(`${ON}: only commands that read run now, and this one may not (${problem}). It was not run.`);
  }
  if (tool.name === "Write" || tool.name === "Edit") {
    const given = typeof input.file_path === "string" ? input.file_path : "";
    const path = given && resolvePath(facts.cwd, given);
    if (path !== facts.planFile) return refuse(`${ON}: the only file you may write is the plan, ${facts.planFile}; ${path || "this path"} was not changed.`);
    const link = planFileLinkProblem(path);
    return link ? refuse(`${ON}: ${link}.`) : { allowed: true };
  }
  return refuse(`${ON}: ${tool.name} is not available until the plan is approved. Read and search, and write the plan to ${facts.planFile}.`);
}

const refuse = (message: string): PlanCheck => ({ allowed: false, message });
