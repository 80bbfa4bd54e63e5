/**
 * Grep: regex search over file contents, through ripgrep when installed, else a TypeScript
 * fallback that prints the same lines.
 */
import { statSync } from "node:fs";
import { truncate } from "../../files/truncate.ts";
import { grepWithFallback } from "./fallback.ts";
import type { GrepLines, GrepOutputMode, GrepQuery } from "./query.ts";
import { grepWithRipgrep } from "./rg.ts";
import { type Parsed, summarizeField, toolInput } from "../define.ts";
import { resolvePath } from "../input.ts";
import type { Tool } from "../tool.ts";
import { ToolError } from "../tool-error.ts";

const MODES = ["content", "files_with_matches", "count"] as const satisfies readonly GrepOutputMode[];
export const MAX_GREP_LINE_CHARS = 2000;
export const MAX_GREP_OUTPUT_CHARS = 30_000;

const DESCRIPTION = [
  'Searches file contents with a regular expression (ripgrep syntax, e.g. "log.*Error", "function\\s+\\w+").',
  '- path: file or directory to search (default: the working directory). Filter files with glob (e.g. "*.ts", "*.{ts,tsx}", "src/**/*.py") or type (e.g. "js", "py", "rust").',
  '- output_mode: "files_with_matches" (default) lists matching files, most recently modified first; "content" shows matching lines as path:line:text; "count" shows path:N.',
  "- In content mode: -n line numbers (default true), -A / -B / -C lines of context after / before / around each match.",
  "- -i for a case-insensitive search. head_limit keeps only the first N lines or entries.",
  "- Hidden files are searched; .git, node_modules and binary files are skipped. Literal braces need escaping (interface\\{\\}).",
  "- Use this instead of running grep or rg through Bash.",
].join("\n");

const FIELDS = {
  pattern: { type: "string", required: true, description: "The regular expression to search for" },
  path: { type: "string", description: "File or directory to search (default: the working directory)" },
  glob: { type: "string", description: 'Only search files matching this glob, e.g. "*.js" or "*.{ts,tsx}"' },
  output_mode: { type: "string", enum: MODES, description: 'What to show (default "files_with_matches")' },
  "-i": { type: "boolean", description: "Case-insensitive search" },
  "-n": { type: "boolean", default: true, description: "Show line numbers (content mode; default true)" },
  "-A": { type: "integer", minimum: 0, description: "Lines of context after each match (content mode)" },
  "-B": { type: "integer", minimum: 0, description: "Lines of context before each match (content mode)" },
  "-C": { type: "integer", minimum: 0, description: "Lines of context before and after each match (content mode)" },
  head_limit: { type: "integer", minimum: 1, description: "Keep only the first N output lines or entries" },
  type: { type: "string", description: 'File type to search (ripgrep names: "js", "ts", "py", "rust", "go", "java"...)' },
} as const;
const INPUT = toolInput(FIELDS);

/**
 * The Grep tool. `rgPath`: the ripgrep binary to use; null forces the fallback; undefined (the
 * default) looks `rg` up on PATH at each call.
 */
export function createGrepTool(options: { rgPath?: string | null } = {}): Tool {
  return {
    name: "Grep",
    description: DESCRIPTION,
    inputSchema: INPUT.schema,
    readOnly: true,
    asksPermission: false,
    summary: summarizeField("pattern"),
    async run(input, ctx) {
      const args = INPUT.parse(input);
      const query = { ...toQuery(args, ctx.cwd), excluded: ctx.excluded };
      const headLimit = args.head_limit;
      const rgPath = options.rgPath === undefined ? Bun.which("rg") : options.rgPath;
      const lines = rgPath ? await grepWithRipgrep(rgPath, query, ctx.signal) : await grepWithFallback(query, ctx.signal);
      return { content: formatLines(query.mode === "files_with_matches" ? newestFirst(lines) : lines, headLimit) };
    },
  };
}

export const grepTool: Tool = createGrepTool();

function toQuery(args: Parsed<typeof FIELDS>, cwd: string): GrepQuery {
  if (args.pattern === "") throw new ToolError("pattern is empty");
  const context = args["-C"] ?? 0;
  return {
    pattern: args.pattern,
    path: resolvePath(cwd, args.path ?? "."),
    glob: args.glob || undefined,
    type: args.type || undefined,
    mode: (args.output_mode ?? "files_with_matches") as GrepOutputMode,
    ignoreCase: args["-i"],
    lineNumbers: args["-n"],
    before: args["-B"] ?? context,
    after: args["-A"] ?? context,
  };
}

/** Paths sorted by modification time, newest first (ties by path), as Claude Code lists matches. */
function newestFirst(paths: GrepLines): GrepLines {
  const mtime = (path: string) => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return 0;
    }
  };
  return paths
    .map((path) => ({ path, at: mtime(path) }))
    .sort((a, b) => b.at - a.at || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((entry) => entry.path);
}

/**
 * The tool_result text: "No matches found" for none; else the lines, the first `headLimit` only,
 * each cut at MAX_GREP_LINE_CHARS, the whole cut at MAX_GREP_OUTPUT_CHARS, with notes saying so.
 */
export function formatLines(lines: GrepLines, headLimit?: number): string {
  if (lines.length === 0) return "No matches found";
  const kept = headLimit === undefined ? lines : lines.slice(0, headLimit);
  const joined = kept.map((line) => truncate(line, MAX_GREP_LINE_CHARS, () => "… [line truncated]")).join("\n");
  let text = truncate(
    joined,
    MAX_GREP_OUTPUT_CHARS,
    () => `\n… [output truncated at ${MAX_GREP_OUTPUT_CHARS} characters; narrow the search or use head_limit]`,
  );
  if (text === joined && kept.length < lines.length) {
    text += `\n(Showing the first ${kept.length} of ${lines.length} results: head_limit=${headLimit}.)`;
  }
  return text;
}
