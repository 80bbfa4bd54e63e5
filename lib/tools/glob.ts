/**
 * Glob: files whose path matches a glob pattern, most recently modified first.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { summarizeField, toolInput } from "./define.ts";
import { errnoCode, resolvePath } from "./input.ts";
import type { Tool } from "./tool.ts";
import { ToolError } from "./tool-error.ts";
import { splitPattern, walkFiles } from "../files/walk.ts";

export const MAX_GLOB_RESULTS = 100;

const INPUT = toolInput({
  pattern: { type: "string", required: true, description: "The glob pattern to match file paths against" },
  path: { type: "string", description: "Directory to search in (default: the working directory)" },
});

export const globTool: Tool = {
  name: "Glob",
  description: [
    'Finds files by name with a glob pattern such as "**/*.ts", "src/**/*.{js,jsx}" or ".github/**".',
    "- Returns absolute paths, one per line, most recently modified first; at most 100.",
    "- path is the directory to search (default: the working directory); the pattern may also be absolute.",
    '- Hidden files and folders (names starting with a dot) are included. .git and node_modules are skipped unless the pattern names them (e.g. "node_modules/zod/**").',
    "- To search file contents use Grep.",
  ].join("\n"),
  inputSchema: INPUT.schema,
  readOnly: true,
  asksPermission: false,
  summary: summarizeField("pattern"),
  async run(input, ctx) {
    const args = INPUT.parse(input);
    const pattern = args.pattern;
    if (pattern.trim() === "") throw new ToolError("pattern is empty");
    const base = resolvePath(ctx.cwd, args.path ?? ".");
    requireDirectory(base);
    const { dir, glob } = splitPattern(base, pattern);
    // What the run's Read rules deny is left out of the listing itself.
    const found = await findFiles(dir, glob, ctx.signal);
    const files = ctx.excluded ? found.filter((f) => !ctx.excluded!.covers(f.path)) : found;
    if (files.length === 0) return { content: "No files found" };
    const shown = files.slice(0, MAX_GLOB_RESULTS).map((f) => f.path);
    if (files.length > MAX_GLOB_RESULTS) {
      shown.push(`(Showing the ${MAX_GLOB_RESULTS} most recently modified of ${files.length} matching files; use a more specific pattern or path.)`);
    }
    return { content: shown.join("\n") };
  },
};

/**
 * Absolute paths of files under `dir` matching `glob`, with their mtime (ms), newest first
 * (ties by path). A missing `dir` gives []. Stops early when `signal` aborts (the walk ends).
 * Throws ToolError when `dir` cannot be listed.
 */
export async function findFiles(dir: string, glob: string, signal?: AbortSignal): Promise<{ path: string; mtimeMs: number }[]> {
  const found: { path: string; mtimeMs: number }[] = [];
  try {
    for await (const rel of walkFiles(dir, glob, signal)) {
      const path = join(dir, rel);
      try {
        found.push({ path, mtimeMs: statSync(path).mtimeMs });
      } catch {
        // Deleted while we looked: not a match any more.
      }
    }
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw new ToolError(`Cannot search ${dir}: ${(error as Error).message}`);
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function requireDirectory(path: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new ToolError(`Directory does not exist: ${path}`);
  }
  if (!isDirectory) throw new ToolError(`${path} is not a directory; path must be a directory to search in`);
}
