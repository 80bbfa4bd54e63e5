/**
 * What a permission prompt shows before a tool runs, so nothing is approved blind: `Edit` a
 * coloured unified diff of the change (3 lines of context), `Write` a diff against the file it
 * replaces or the head of a new file, `Bash` the whole command, an MCP tool `server › tool (MCP)`
 * and its arguments. Reads the file being changed (at most MAX_FILE_BYTES); never writes.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { structuredPatch } from "diff";
import { replaceInText } from "../../tools/edit-text.ts";
import type { Style } from "./style.ts";
import { shortArgs } from "./tool-lines.ts";
import { terminalText, visibleText } from "../../shared/terminal-text.ts";

/** Lines of a preview before the rest is counted instead of shown. */
export const MAX_PREVIEW_LINES = 40;
/** Lines of a new file shown by `Write`. */
export const NEW_FILE_HEAD = 10;
/** Files larger than this (bytes) are described, not diffed. */
export const MAX_FILE_BYTES = 1024 * 1024;

export interface PreviewContext {
  cwd: string;
  style: Style;
  /** Where an MCP tool's API name leads (the registry's table); undefined for other tools. */
  mcpRoute(name: string): { server: string; tool: string } | undefined;
}

/** The prompt's title (`Edit(src/a.ts)`, `fx › echo (MCP)`) and the lines shown above the question. */
export interface Preview {
  title: string;
  body: string[];
}

export function permissionPreview(name: string, input: Record<string, unknown>, ctx: PreviewContext): Preview {
  const route = ctx.mcpRoute(name);
  // Names and commands the user approves show their control characters written out (terminal-text.ts).
  if (route) return { title: `${visibleText(route.server)} › ${visibleText(route.tool)} (MCP)`, body: capped(argumentLines(input), ctx.style) };
  const path = typeof input.file_path === "string" ? input.file_path : undefined;
  const title = `${visibleText(name)}(${shortArgs(name, input, ctx.cwd)})`;
  if (name === "Bash" && typeof input.command === "string") {
    const description = typeof input.description === "string" ? [ctx.style.dim(terminalText(input.description, { oneLine: true }))] : [];
    return {
      title,
      body: [
        ...description,
        ...capped(
          input.command.split("\n").map((l) => `  ${shown(l)}`),
          ctx.style,
        ),
      ],
    };
  }
  if (name === "Edit" && path) return { title, body: editPreview(resolve(ctx.cwd, path), input, ctx) };
  if (name === "Write" && path) return { title, body: writePreview(resolve(ctx.cwd, path), input, ctx) };
  return { title, body: [] };
}

function editPreview(path: string, input: Record<string, unknown>, ctx: PreviewContext): string[] {
  const { old_string: oldString, new_string: newString, replace_all: replaceAll } = input;
  if (typeof oldString !== "string" || typeof newString !== "string") return [];
  const before = readText(path);
  if (before === undefined)
    return oldString ? [ctx.style.dim(`(${display(path, ctx.cwd)} cannot be read: the edit will fail)`)] : diffLines("", newString, ctx);
  if (!oldString) return diffLines(before, newString, ctx);
  const replaced = replaceInText(before, oldString, newString, replaceAll === true);
  if (!replaced.ok) {
    const why = replaced.count ? `${replaced.count} matches and replace_all is not set` : "old_string is not in the file";
    return [ctx.style.dim(`(${why}: the edit will fail)`)];
  }
  return diffLines(before, replaced.text, ctx);
}

function writePreview(path: string, input: Record<string, unknown>, ctx: PreviewContext): string[] {
  const content = typeof input.content === "string" ? input.content : "";
  const before = readText(path);
  if (before !== undefined) return diffLines(before, content, ctx);
  const lines = content.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const head = lines.slice(0, NEW_FILE_HEAD).map((l) => ctx.style.green(`+ ${shown(l)}`));
  const rest = lines.length - head.length;
  return [ctx.style.dim(`new file, ${lines.length} line${lines.length === 1 ? "" : "s"}`), ...head, ...(rest > 0 ? [ctx.style.dim(`… +${rest} lines`)] : [])];
}

/** A unified diff of two texts as coloured lines: hunk headers cyan, removals red, additions green. */
export function diffLines(before: string, after: string, ctx: Pick<PreviewContext, "style">): string[] {
  const { style } = ctx;
  const patch = structuredPatch("a", "b", before.replaceAll("\r\n", "\n"), after.replaceAll("\r\n", "\n"), "", "", { context: 3 });
  if (!patch.hunks.length) return [style.dim("(no change)")];
  const lines: string[] = [];
  for (const h of patch.hunks) {
    lines.push(style.cyan(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`));
    for (const l of h.lines) {
      if (l.startsWith("\\")) continue; // "\ No newline at end of file"
      const text = shown(l);
      lines.push(l.startsWith("+") ? style.green(text) : l.startsWith("-") ? style.red(text) : text);
    }
  }
  return capped(lines, style);
}

/**
 * One line of what the user approves (a command, a file's text) with its codes written out: a
 * conceal colour or a cursor move would otherwise hide the rest from the person deciding.
 */
const shown = (line: string) => visibleText(line.replace(/\t/g, "  "));

function argumentLines(input: Record<string, unknown>): string[] {
  if (!Object.keys(input).length) return ["  (no arguments)"];
  return (JSON.stringify(input, null, 2) ?? "").split("\n").map((l) => `  ${l}`);
}

function capped(lines: string[], style: Style): string[] {
  if (lines.length <= MAX_PREVIEW_LINES) return lines;
  return [...lines.slice(0, MAX_PREVIEW_LINES), style.dim(`… +${lines.length - MAX_PREVIEW_LINES} lines`)];
}

/** The file's text, or undefined when it is missing, not a regular file, too large or unreadable. */
function readText(path: string): string | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
