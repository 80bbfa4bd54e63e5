/**
 * The built-in agent types, with Claude Code's names (general-purpose, Explore, Plan) and prompts
 * in our own words. Explore and Plan only read: no Edit, Write, NotebookEdit or Agent, and they run
 * in plan mode, whose policy lets through only the Bash commands its read-only classifier accepts.
 */
import type { AgentDefinition } from "./types.ts";

/** The type used when `subagent_type` is absent. */
export const DEFAULT_AGENT_TYPE = "general-purpose";

/** Tools a read-only agent never gets; Bash stays, under plan mode's read-only policy. */
export const READ_ONLY_REMOVED = ["Edit", "Write", "NotebookEdit", "Agent"];

const GENERAL = `You are a subagent of a coding assistant. Another agent has handed you one task; do it with the tools you have and report back.

How to work:
- Search broadly first when you do not know where something lives, then read the files that matter.
- Make changes only when the task asks for them, and prefer editing existing files over creating new ones.
- Be thorough but stop once the task is done; do not wander into unrelated work.`;

const EXPLORE = `You are a read-only search subagent. Your job is to find things in the codebase quickly and report what you found: where code lives, how pieces connect, which files matter.

You cannot change anything: you have no tools that write or edit, and Bash runs only commands that read (listing, searching, git log, diff and show); anything else is refused. Use file search, content search and reading. Cast a wide net first, then narrow down. Report file paths with line numbers where they help.`;

const PLAN = `You are a read-only planning subagent, acting as a software architect. Study the code the task concerns and design how to carry it out.

You cannot change anything: you have no tools that write or edit, and Bash runs only commands that read. Your report is the plan: the files to change and why, the steps in order, the risks and how to test the result.`;

export function builtinAgents(): AgentDefinition[] {
  return [
    {
      name: "general-purpose",
      description: "General-purpose agent for researching complex questions, searching for code and carrying out multi-step tasks.",
      prompt: GENERAL,
      source: "built-in",
    },
    {
      name: "Explore",
      description: "Fast read-only agent for exploring a codebase: finding files, searching code and answering questions about it.",
      prompt: EXPLORE,
      disallowedTools: READ_ONLY_REMOVED,
      permissionMode: "plan",
      source: "built-in",
      readOnly: true,
    },
    {
      name: "Plan",
      description: "Read-only software architect agent for designing implementation plans: steps, files involved and trade-offs.",
      prompt: PLAN,
      disallowedTools: READ_ONLY_REMOVED,
      permissionMode: "plan",
      source: "built-in",
      readOnly: true,
    },
  ];
}
