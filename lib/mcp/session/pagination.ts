/**
 * Lists that come in pages (MCP 2025-11-25 server/utilities/pagination; the same in 2026-07-28):
 * `nextCursor` followed to the end, a page served twice adding nothing, and a repeating cursor or
 * an endless list stopped with a warning instead of looping.
 */
import { isObject } from "../../shared/values.ts";

/** Pages read at most before a list is reported as possibly incomplete. */
export const MAX_PAGES = 1000;

export interface PageSpec {
  /** `MCP server "x"`, for messages. */
  peer: string;
  method: string;
  /** The result's array: `tools`, `prompts`, `resources`, `resourceTemplates` or `skills`. */
  key: string;
  /** Whether an entry is well-formed; a malformed one is skipped with a warning. */
  valid: (item: Record<string, unknown>) => boolean;
  warn?: (line: string) => void;
}

/**
 * Every entry of the list, in order, each once (keyed by `name`, `uri` (resources, skills) or `uriTemplate`).
 * @param request sends the list request with `params` (`{cursor}` after the first page).
 * @throws Error when a page has no `key` array; whatever `request` throws.
 */
export async function paginate(request: (params: { cursor: string } | undefined) => Promise<unknown>, spec: PageSpec): Promise<unknown[]> {
  const { peer, method, key, valid, warn } = spec;
  const items: unknown[] = [];
  const ids = new Set<string>();
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await request(cursor === undefined ? undefined : { cursor });
    const list = isObject(result) ? result[key] : undefined;
    if (!Array.isArray(list)) throw new Error(`${peer}: ${method} result has no "${key}" array`);
    for (const item of list) {
      if (isObject(item) && valid(item)) {
        const id = String(key === "resources" || key === "skills" ? item.uri : key === "resourceTemplates" ? item.uriTemplate : item.name);
        if (!ids.has(id)) items.push(item);
        ids.add(id);
      } else warn?.(`${peer}: ${method} entry skipped (malformed): ${JSON.stringify(item)?.slice(0, 120)}`);
    }
    const next = (result as Record<string, unknown>).nextCursor;
    if (typeof next !== "string" || next === "") return items;
    if (seen.has(next) || page >= MAX_PAGES) {
      const why = seen.has(next) ? `repeated cursor ${JSON.stringify(next)}` : `more than ${MAX_PAGES} pages`;
      warn?.(`${peer}: ${method} stopped after ${page} pages (${why}); the list may be incomplete`);
      return items;
    }
    seen.add(next);
    cursor = next;
  }
}
