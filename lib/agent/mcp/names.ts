/**
 * Every MCP name the model or the user sees, built here and nowhere else: tools
 * `mcp__<server>__<tool>`, prompt commands `/mcp__<server>__<prompt>`, resource mentions
 * `@<server>:<uri>`, and the --allowedTools rules that name servers and tools.
 * MCP tool names may hold `.`, spaces and up to 128 characters; the Messages API accepts only
 * `^[a-zA-Z0-9_-]{1,64}$`, unique per request. So names are sanitised, capped and de-duplicated,
 * and mapping a name back goes through the namer's table, never through splitting on `__`.
 */
/** Messages API limit on tool names (characters). */
export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_CHARS = 8;

const sanitize = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

/**
 * Hands out API-valid tool names, stable for a (server, tool) pair and unique for the namer's
 * lifetime. A name that would collide (e.g. `a.b` and `a_b`, or server `x__y` with tool `z` and
 * server `x` with tool `y__z`) gets a `_2`, `_3`… suffix; the pair named first keeps the plain name.
 */
export class ToolNamer {
  private readonly byPair = new Map<string, string>();
  private readonly byName = new Map<string, { server: string; tool: string }>();

  /**
   * The API name for `tool` on `server`: `mcp__<server>__<tool>` with every character outside
   * `[A-Za-z0-9_-]` replaced by `_`; over 64 characters → a readable prefix, `_`, and 8 hex
   * characters of SHA-256 over the original pair. Same pair → same name. Never throws.
   */
  name(server: string, tool: string): string {
    const key = JSON.stringify([server, tool]);
    const known = this.byPair.get(key);
    if (known !== undefined) return known;
    let base = `mcp__${sanitize(server)}__${sanitize(tool)}`;
    if (base.length > MAX_TOOL_NAME_LENGTH) {
      // Bun's hasher, not node:crypto: this file is on the start-up path and imports nothing.
      const hash = new Bun.CryptoHasher("sha256").update(key).digest("hex").slice(0, HASH_CHARS);
      base = `${base.slice(0, MAX_TOOL_NAME_LENGTH - HASH_CHARS - 1)}_${hash}`;
    }
    let name = base;
    for (let n = 2; this.byName.has(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
    }
    this.byPair.set(key, name);
    this.byName.set(name, { server, tool });
    return name;
  }

  /** The (server, tool) pair a name was given to, or undefined if this namer never produced it. */
  lookup(name: string): { server: string; tool: string } | undefined {
    return this.byName.get(name);
  }
}

/** Characters a command word cannot hold: the input parser ends a command name at whitespace or `/`. */
const UNTYPEABLE = /[\s/\p{Cc}]/gu;

/**
 * The slash command (without the slash) for an MCP prompt: `mcp__<server>__<prompt>`, every
 * whitespace, `/` or control character replaced by `_` so it can be typed as one word. Commands
 * never reach the Messages API, so other characters (`.`, `:`) stay as the user would type them.
 * Not unique on its own (`a/b` and `a_b`): route through `promptCommands`, never by splitting.
 */
export function promptCommandName(server: string, prompt: string): string {
  return `${promptCommandPrefix(server)}${prompt.replace(UNTYPEABLE, "_")}`;
}

/** `mcp__<server>__`, typeable: what every command of the server's prompts starts with. */
export function promptCommandPrefix(server: string): string {
  return `mcp__${server.replace(UNTYPEABLE, "_")}__`;
}

/**
 * One server's prompts by command name, in list order; the table is the only way back to a prompt.
 * A prompt whose name is typeable as it is keeps it; one that had to be rewritten and would then
 * repeat another's command gets `_2`, `_3`…, so every prompt stays reachable.
 */
export function promptCommands<P extends { name: string }>(server: string, prompts: readonly P[]): Map<string, P> {
  const names = prompts.map((p) => promptCommandName(server, p.name));
  const taken = new Set(names.filter((name, i) => name === promptCommandPrefix(server) + prompts[i]!.name));
  const table = new Map<string, P>();
  prompts.forEach((prompt, i) => {
    const base = names[i]!;
    let name = base;
    const rewritten = base !== promptCommandPrefix(server) + prompt.name;
    for (let n = 2; table.has(name) || (rewritten && taken.has(name)); n++) name = `${base}_${n}`;
    table.set(name, prompt);
  });
  return table;
}

/** `@<server>:<uri>` without the `@`: how a resource is mentioned (MCP server/resources). */
export function resourceMention(server: string, uri: string): string {
  return `${server}:${uri}`;
}

/** `mcp__<server>`: the --allowedTools/--disallowedTools rule naming a whole server, as the config wrote it. */
export function serverRuleName(server: string): string {
  return `mcp__${server}`;
}

/** `mcp__<server>__<tool>`: the rule naming one tool, with the names as the config and the server wrote them. */
export function toolRuleName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/**
 * Whether a --allowedTools/--disallowedTools rule names a tool: its API name, or, for an MCP tool
 * (given its route), `mcp__<server>`, `mcp__<server>__*` or `mcp__<server>__<tool>` with the names
 * as the config and the server wrote them (the API name may have been rewritten).
 */
export function ruleNamesTool(rule: string, toolName: string, route?: { server: string; tool: string }): boolean {
  if (rule === toolName) return true;
  if (!route) return false;
  const server = serverRuleName(route.server);
  return rule === server || rule === `${server}__*` || rule === toolRuleName(route.server, route.tool);
}
