/**
 * The `/agents` text: every agent type of the run with where it came from (built-in, user,
 * project, --agents, SDK) and what it may use, each line through `printable` since names and
 * descriptions come from files.
 */
import { toolsLabel } from "./listing.ts";
import { printable } from "./parse.ts";
import type { AgentDefinition } from "./types.ts";

const ORIGIN = { "built-in": "built-in", user: "user", project: "project", flag: "--agents", sdk: "SDK" } as const;

/** One block per agent; a sentence when the Agent tool is not offered in this run. */
export function describeAgents(agents: readonly AgentDefinition[] | undefined): string {
  if (!agents) return "The Agent tool is not offered in this run.\n";
  const lines = ["Agents:"];
  for (const a of agents) {
    lines.push(`  ${printable(a.name)}  (${ORIGIN[a.source]}${a.model ? `, model ${printable(a.model)}` : ""})`);
    lines.push(`    ${printable(a.description).slice(0, 160)}`);
    lines.push(`    tools: ${printable(toolsLabel(a))}`);
  }
  return `${lines.join("\n")}\n`;
}
