/**
 * When the Agent tool and the agent listing join the model's request. In the interactive session
 * and host mode they are offered by default. In `-p` they are opt-in, so that a scripted run's
 * first request stays what it was: only `--agents`, `--tools` or `--allowedTools` naming `Agent`
 * (or Claude Code's older name `Task`), the process environment (`AGENT_SUBAGENTS=1`), or the
 * working directory's own `.claude/agents/` folder holding an agent file turn them on. The
 * built-in types, the user's home (`~/.claude/agents`) and plugins never do on their own.
 * `--disallowedTools Agent` and deny rules still take the tool off afterwards.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The environment switch that offers the Agent tool in -p (registered with the one rule, offered-tools.ts). */
export const SUBAGENTS_ENV = "AGENT_SUBAGENTS";

export interface AgentAskSources {
  /** `--allowedTools` entries. */
  allowedTools: readonly string[];
  /** `--tools` as given. */
  tools?: string;
  /** Whether `--agents` (or the SDK's agents) was given. */
  agentsFlag: boolean;
  /** The working directory (only its own `.claude/agents/` counts, never a parent's or the home's). */
  cwd: string;
}

const namesAgent = (entry: string) => /^(Agent|Task)(\(.*\))?$/.test(entry.trim());

/**
 * Whether a flag or the project's own files ask for the Agent tool: `--agents`, `--allowedTools` or
 * `--tools` naming Agent or Task, or an agent file in the working directory's `.claude/agents/`.
 * The environment switch and the mode are the one rule's (offered-tools.ts).
 */
export function agentAskedFor(s: AgentAskSources): boolean {
  if (s.agentsFlag) return true;
  if (s.allowedTools.some(namesAgent) || (s.tools ?? "").split(/[\s,]+/).some((t) => t && namesAgent(t))) return true;
  return hasAgentFiles(join(s.cwd, ".claude", "agents"));
}

function hasAgentFiles(dir: string): boolean {
  try {
    return existsSync(dir) && readdirSync(dir).some((n) => n.endsWith(".md"));
  } catch {
    return false;
  }
}
