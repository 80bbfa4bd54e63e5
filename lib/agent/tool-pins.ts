/**
 * Keeps a resumed conversation's tool names pointing where they pointed. API names of MCP tools
 * depend on the order servers list them (a collision's `_2` goes to whichever came second), so a
 * resumed session whose servers list in another order could route an old `tool_use` name to a
 * different tool. Each saved name keeps its (server, tool); a current tool whose name a saved one
 * holds for another route gets a fresh name.
 */
import type { Tool } from "../tools/tool.ts";
import type { ToolRoute } from "./mcp/tools.ts";
import type { Routes } from "./conversation.ts";
import { MAX_TOOL_NAME_LENGTH } from "./mcp/names.ts";

const key = (r: ToolRoute) => JSON.stringify([r.server, r.tool]);

/**
 * `tools` renamed so every route in `pins` keeps its saved name; tools without a route (built-in)
 * and routes never saved keep theirs unless taken. Returns the tools, in order, and the routes of
 * the names given out. Never throws.
 */
export function pinToolNames(
  tools: readonly Tool[],
  routeOf: (name: string) => ToolRoute | undefined,
  pins: Readonly<Routes>,
): { tools: Tool[]; routes: Routes } {
  const pinnedName = new Map(Object.entries(pins).map(([name, route]) => [key(route), name]));
  const routes: Routes = {};
  const used = new Set<string>();
  const named = tools.map((tool) => {
    const route = routeOf(tool.name);
    const pinned = route && pinnedName.get(key(route));
    if (pinned) used.add(pinned);
    return { tool, route, name: pinned };
  });
  for (const t of named) if (!t.name && !Object.hasOwn(pins, t.tool.name) && !used.has(t.tool.name)) used.add((t.name = t.tool.name));
  for (const t of named) {
    if (t.name) continue;
    for (let n = 2; !t.name; n++) {
      const suffix = `_${n}`;
      const candidate = t.tool.name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
      if (!used.has(candidate) && !Object.hasOwn(pins, candidate)) used.add((t.name = candidate));
    }
  }
  return {
    routes,
    tools: named.map(({ tool, route, name }) => {
      if (route) routes[name!] = route;
      // Object.create keeps a class-based tool's methods; only the name changes.
      return name === tool.name ? tool : Object.assign(Object.create(tool) as Tool, { name: name! });
    }),
  };
}
