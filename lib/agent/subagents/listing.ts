/**
 * The agent listing the model reads beside the skills listing, in Claude Code's shape (one line per
 * type: `- <name>: <description> (Tools: …)`, sorted case-insensitively) and our own words around
 * it. It has a character budget, as the skills listing has (skills/listing.ts's budget), so that
 * thousands of agent files cannot flood the context: over budget, entries lose their descriptions
 * in order, and past that the rest are only counted.
 */
import { listingBudget } from "../skills/listing.ts";
import type { AgentDefinition } from "./types.ts";

export const AGENT_LISTING_HEADER = "Agent types you can start with the Agent tool (subagent_type):";
const FOOTER = "To hand out several independent tasks, put all the Agent calls in one reply: they then run at the same time.";
const MAX_DESCRIPTION_CHARS = 500;

/** What the listing says an agent may use. */
export function toolsLabel(def: AgentDefinition): string {
  if (def.tools) return def.tools.join(", ") || "none";
  if (def.disallowedTools?.length) return `All tools except ${def.disallowedTools.join(", ")}`;
  return "*";
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_DESCRIPTION_CHARS ? `${flat.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : flat;
}

/** The listing within the budget for a model whose window is `windowTokens`; undefined with no agent. */
export function agentListing(agents: readonly AgentDefinition[], windowTokens: number | undefined, overBudget?: (line: string) => void): string | undefined {
  if (!agents.length) return undefined;
  const budget = listingBudget(windowTokens);
  const entries = agents.map((a) => ({ short: `- ${a.name}`, full: `- ${a.name}: ${oneLine(a.description)} (Tools: ${toolsLabel(a)})` }));
  const size = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  let lines = entries.map((e) => e.full);
  if (size(lines) > budget) {
    overBudget?.(`agents: the listing of ${agents.length} agents is over its budget of ${budget} characters: some are listed by name only`);
    let left = budget - size(entries.map((e) => e.short));
    lines = entries.map((e) => {
      const extra = e.full.length - e.short.length;
      if (extra > left) return e.short;
      left -= extra;
      return e.full;
    });
    let used = 0;
    const kept: string[] = [];
    for (const l of lines) {
      if (used + l.length + 1 > budget) break;
      kept.push(l);
      used += l.length + 1;
    }
    if (kept.length < lines.length) kept.push(`(${lines.length - kept.length} more agent types are not listed here; any of them can still be named)`);
    lines = kept;
  }
  return `${AGENT_LISTING_HEADER}\n${lines.join("\n")}\n\n${FOOTER}`;
}
