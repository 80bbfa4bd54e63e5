/**
 * Per-server options any entry may carry, in any scope and for any transport:
 *
 * | key            | type     | meaning                                                          |
 * |----------------|----------|------------------------------------------------------------------|
 * | `disabled`     | boolean  | not started; listed as disabled                                  |
 * | `timeout`      | ms       | start-up (handshake and each list request), instead of MCP_TIMEOUT |
 * | `toolTimeout`  | ms       | one tools/call, prompts/get or resources/read, instead of MCP_TOOL_TIMEOUT |
 * | `includeTools` | string[] | only these of the server's own tool names are offered            |
 * | `excludeTools` | string[] | these are never offered                                          |
 * | `protocolVersion` | string | "2026-07-28": `server/discover` first (MCP 2026-07-28 basic/versioning); "2025-11-25": `initialize` first, the default |
 * | `preferTasks`  | boolean  | a tool whose `execution.taskSupport` is "optional" runs as a task (MCP 2025-11-25, basic/utilities/tasks) |
 */

export interface ServerOptions {
  disabled?: boolean;
  /** `timeout`, in ms. */
  timeoutMs?: number;
  /** `toolTimeout`, in ms. */
  toolTimeoutMs?: number;
  includeTools?: string[];
  excludeTools?: string[];
  /** `protocolVersion`: the revision to try first. */
  protocolVersion?: "2025-11-25" | "2026-07-28";
  /** `preferTasks`: "optional" task tools are called task-augmented too ("required" ones always are). */
  preferTasks?: boolean;
}

/** The options of `entry` (only the keys it sets), or the one-line reason they are wrong. */
export function validateOptions(entry: Record<string, unknown>): ServerOptions | string {
  const out: ServerOptions = {};
  if (entry.disabled !== undefined) {
    if (typeof entry.disabled !== "boolean") return '"disabled" must be true or false';
    out.disabled = entry.disabled;
  }
  if (entry.preferTasks !== undefined) {
    if (typeof entry.preferTasks !== "boolean") return '"preferTasks" must be true or false';
    out.preferTasks = entry.preferTasks;
  }
  for (const [key, field] of [
    ["timeout", "timeoutMs"],
    ["toolTimeout", "toolTimeoutMs"],
  ] as const) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return `"${key}" must be a positive number of milliseconds`;
    out[field] = value;
  }
  if (entry.protocolVersion !== undefined) {
    if (entry.protocolVersion !== "2025-11-25" && entry.protocolVersion !== "2026-07-28") return '"protocolVersion" must be "2025-11-25" or "2026-07-28"';
    out.protocolVersion = entry.protocolVersion;
  }
  for (const key of ["includeTools", "excludeTools"] as const) {
    const value = entry[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return `"${key}" must be an array of tool names`;
    out[key] = value as string[];
  }
  return out;
}

/**
 * Whether a tool named `tool` (the server's own name) passes the entry's filters: in
 * `includeTools` when that is given, and never in `excludeTools`.
 */
export function toolAllowed(options: ServerOptions, tool: string): boolean {
  if (options.includeTools && !options.includeTools.includes(tool)) return false;
  return !options.excludeTools?.includes(tool);
}

/** Filter entries that name no tool of the server: one warning line each names them. */
export function unmatchedFilters(options: ServerOptions, tools: string[]): { key: "includeTools" | "excludeTools"; names: string[] }[] {
  const out: { key: "includeTools" | "excludeTools"; names: string[] }[] = [];
  for (const key of ["includeTools", "excludeTools"] as const) {
    const names = (options[key] ?? []).filter((n) => !tools.includes(n));
    if (names.length) out.push({ key, names });
  }
  return out;
}
