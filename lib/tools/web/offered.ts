/**
 * When the web tools join the model's tool list. In the interactive session and host mode they are
 * offered by default. In `-p` they are opt-in, so that a scripted run's first request stays what it
 * was: only a flag (`--allowedTools WebFetch…`), the process environment (`AGENT_WEB_TOOLS=1`) or
 * the project's own settings files (an allow or ask rule naming the tool) add them; a rule in the
 * user's home never does. `--disallowedTools` and deny rules still take them off afterwards.
 */

export interface OfferSources {
  mode: "print" | "session" | "host";
  env: Record<string, string | undefined>;
  /** `--allowedTools` entries. */
  allowedTools: readonly string[];
  /** Settings rules with where they came from. */
  rules: readonly { text: string; behavior: "allow" | "ask" | "deny"; scope: string }[];
}

/** Settings scopes that are the project's own files or a flag, never the user's home. */
const NOT_HOME = new Set(["project", "local", "flag"]);

const names = (text: string, tool: string) => text.trim() === tool || text.trim().startsWith(`${tool}(`);

/** Whether `tool` (WebFetch, WebSearch) is offered, by the rule above. */
export function webToolOffered(tool: string, s: OfferSources): boolean {
  if (s.mode !== "print") return true;
  if (truthy(s.env.AGENT_WEB_TOOLS)) return true;
  if (s.allowedTools.some((t) => names(t, tool))) return true;
  return s.rules.some((r) => r.behavior !== "deny" && NOT_HOME.has(r.scope) && names(r.text, tool));
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false", "no"].includes(value.trim().toLowerCase());
}
