/**
 * Names for MCP tools and prompts as the model and the user see them: `mcp__<server>__<tool>`.
 * MCP tool names may hold `.`, spaces and up to 128 characters; the Messages API accepts only
 * `^[a-zA-Z0-9_-]{1,64}$`, unique per request. So names are sanitised, capped and de-duplicated,
 * and mapping a name back goes through the namer's table, never through splitting on `__`.
 */
import { createHash } from "node:crypto";

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
      const hash = createHash("sha256").update(key).digest("hex").slice(0, HASH_CHARS);
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

/**
 * The slash command for an MCP prompt: `mcp__<server>__<prompt>`, whitespace replaced by `_`.
 * Commands never reach the Messages API, so other characters (`.`, `:`) are kept as the user
 * would type them.
 */
export function promptCommandName(server: string, prompt: string): string {
  return `mcp__${server}__${prompt}`.replace(/\s/g, "_");
}
