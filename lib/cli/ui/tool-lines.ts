/**
 * One-line summaries of tool calls for the terminal: `● Bash(npm test)` when a call starts,
 * `  ⎿  first line of the result (+12 lines)` when it ends. Pure functions, no I/O.
 */
import { builtinTools } from "../../tools/builtin.ts";
import type { Tool, ToolResultBlock } from "../../tools/tool.ts";
import type { Style } from "./style.ts";
import { terminalText } from "../../shared/terminal-text.ts";

/** Longest argument summary shown, in characters. */
export const MAX_ARGS_CHARS = 80;
/** Longest result preview shown, in characters. */
export const MAX_PREVIEW_CHARS = 100;

/** Folds a value onto one line and cuts it to `max` characters with an ellipsis; no control character survives (terminal-text.ts). */
export function oneLine(s: string, max: number): string {
  const flat = terminalText(s)
    .replace(/\s*\n\s*/g, " ⏎ ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/**
 * The short argument text of a call: the tool's own `summary` (a built-in's main field, paths
 * relative to `cwd` when inside it), else `key: value` pairs with JSON values. At most
 * MAX_ARGS_CHARS. `tool` defaults to the built-in tool of that name.
 */
export function shortArgs(name: string, input: unknown, cwd: string, tool: Pick<Tool, "summary"> | undefined = builtinNamed(name)): string {
  const fields = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const summary = tool?.summary?.(fields, cwd);
  if (summary !== undefined) return oneLine(summary, MAX_ARGS_CHARS);
  const pairs = Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v) ?? String(v)}`);
  return oneLine(pairs.join(", "), MAX_ARGS_CHARS);
}

function builtinNamed(name: string): Tool | undefined {
  return builtinTools().find((t) => t.name === name);
}

/** A call's short name: `server › tool` for an MCP tool (its route), else the tool's name. */
export function mcpCallName(name: string, route?: { server: string; tool: string }): string {
  return route ? `${route.server} › ${route.tool}` : name;
}

/** The line printed when a call starts: `● Name(args)`, or `● server › tool (MCP)(args)` for an MCP tool. */
export function toolStartLine(name: string, input: unknown, cwd: string, style: Style, route?: { server: string; tool: string }): string {
  const shown = route ? `${mcpCallName(name, route)} (MCP)` : name;
  const args = shortArgs(name, input, cwd);
  // `(MCP)()` reads as a typo: an MCP call without arguments shows none.
  return `${style.cyan("●")} ${style.bold(shown)}${route && !args ? "" : `(${args})`}`;
}

/**
 * The line printed when a call ends: the first non-empty line of its result (at most `maxChars`,
 * default MAX_PREVIEW_CHARS) and how many more there are; errors are marked `Error:` (red when
 * colour is on). `label` names the call when other calls were printed in between.
 */
export function toolResultLine(content: string | ToolResultBlock[], isError: boolean, style: Style, opts: { label?: string; maxChars?: number } = {}): string {
  const { label, maxChars = MAX_PREVIEW_CHARS } = opts;
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : `[image ${b.source.media_type}]`)).join("\n");
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const first = oneLine(lines[0] ?? "(no output)", maxChars);
  const more = lines.length > 1 ? style.dim(` (+${lines.length - 1} line${lines.length === 2 ? "" : "s"})`) : "";
  const prefix = `  ⎿  ${label ? `${label}: ` : ""}`;
  return isError ? prefix + style.red(`Error: ${first}`) + more : prefix + first + more;
}

/** Result lines shown after a finished call. */
export const PREVIEW_LINES = 3;

/**
 * The preview printed when a call ends: its first PREVIEW_LINES non-empty lines (each cut to
 * `maxChars`), then `… +N lines` for the rest; errors marked as in `toolResultLine`.
 */
export function toolResultPreview(
  content: string | ToolResultBlock[],
  isError: boolean,
  style: Style,
  opts: { label?: string; maxChars?: number } = {},
): string {
  const { label, maxChars = MAX_PREVIEW_CHARS } = opts;
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : `[image ${b.source.media_type}]`)).join("\n");
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  if (lines.length <= 1 || isError) return toolResultLine(content, isError, style, opts);
  // Leading indentation is kept (JSON, code): it is the shape of the result.
  const shown = lines.slice(0, PREVIEW_LINES).map((l) => {
    const indent = /^[ \t]*/.exec(l)![0].replace(/\t/g, "  ").slice(0, 16);
    return indent + oneLine(l, Math.max(10, maxChars - indent.length));
  });
  const rest = lines.length - shown.length;
  const out = [`  ⎿  ${label ? `${label}: ` : ""}${shown[0]}`, ...shown.slice(1).map((l) => `     ${l}`)];
  if (rest) out.push(style.dim(`     … +${rest} line${rest === 1 ? "" : "s"}`));
  return out.join("\n");
}
