/**
 * Grep without ripgrep: walks files with Bun.Glob and matches lines with a JavaScript RegExp,
 * printing what `rg` prints for the same query (see grep-rg.ts). Differences: JavaScript regex
 * syntax, and .gitignore files are not read.
 */
import { statSync } from "node:fs";
import { basename, join } from "node:path";
import { fileTypeGlobs, FILE_TYPES } from "../file-types.ts";
import type { GrepLines, GrepQuery } from "./query.ts";
import { readRegularFile } from "../../files/regular-file.ts";
import { decodeText } from "../../files/text-file.ts";
import { ToolError } from "../tool-error.ts";
import { walkFiles } from "../../files/walk.ts";

/** Larger files are skipped rather than loaded whole (bytes). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;
/** Files searched between two returns to the event loop, where an abort (a signal, a timer) is delivered. */
const FILES_PER_TURN = 32;

/**
 * Searches `query.path` (a file, or a directory walked recursively, dot-files included, .git and
 * node_modules skipped, binary files skipped) and returns GrepLines, files in path order.
 * Throws ToolError for an invalid regex, an unknown type, a missing path, or when `signal` aborts.
 */
export async function grepWithFallback(query: GrepQuery, signal: AbortSignal): Promise<GrepLines> {
  const regex = compile(query.pattern, query.ignoreCase);
  return searchFiles(await candidateFiles(query, signal), regex, query, signal);
}

/**
 * Searches `files` (absolute paths, in the order given) for `regex`, printing lines as `query`
 * asks. Returns to the event loop every FILES_PER_TURN files, so an abort requested meanwhile
 * is seen. Throws ToolError("Search interrupted") once `signal` has aborted.
 */
export async function searchFiles(files: string[], regex: RegExp, query: GrepQuery, signal: AbortSignal): Promise<GrepLines> {
  const out: GrepLines = [];
  for (let f = 0; f < files.length; f++) {
    if (f > 0 && f % FILES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) throw new ToolError("Search interrupted");
    const file = files[f]!;
    const lines = readLines(file);
    if (!lines) continue;
    const matches: number[] = [];
    for (let i = 0; i < lines.length; i++) if (regex.test(lines[i]!)) matches.push(i);
    if (matches.length === 0) continue;
    if (query.mode === "files_with_matches") out.push(file);
    else if (query.mode === "count") out.push(`${file}:${matches.length}`);
    else contentLines(file, lines, matches, query, out);
  }
  return out;
}

function compile(pattern: string, ignoreCase: boolean): RegExp {
  // Unicode mode first (\p{L}, astral characters); then the lenient mode, which accepts escapes like \- that rg does.
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(pattern, (ignoreCase ? "i" : "") + flags);
    } catch {
      // try the next mode
    }
  }
  throw new ToolError(`Invalid regular expression: ${pattern}`);
}

async function candidateFiles(query: GrepQuery, signal: AbortSignal): Promise<string[]> {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(query.path).isDirectory();
  } catch {
    throw new ToolError(`Path does not exist: ${query.path}`);
  }
  // rg searches a file named explicitly whatever the filters say.
  if (!isDirectory) return [query.path];
  const accept = fileFilter(query);
  const files: string[] = [];
  try {
    for await (const rel of walkFiles(query.path, "**/*", signal)) {
      const path = join(query.path, rel);
      if (accept(rel) && !query.excluded?.covers(path)) files.push(path);
    }
  } catch (error) {
    if (signal.aborted) throw new ToolError("Search interrupted");
    throw new ToolError(`Cannot search ${query.path}: ${(error as Error).message}`);
  }
  return files.sort();
}

/** rg's `--glob` and `--type` rules as a predicate on paths relative to the search root. */
function fileFilter(query: GrepQuery): (rel: string) => boolean {
  const tests: ((rel: string) => boolean)[] = [];
  if (query.glob !== undefined) {
    const negated = query.glob.startsWith("!");
    const source = negated ? query.glob.slice(1) : query.glob;
    const glob = new Bun.Glob(source);
    const byName = !source.includes("/");
    tests.push((rel) => glob.match(byName ? basename(rel) : rel) !== negated);
  }
  if (query.type !== undefined) {
    const globs = fileTypeGlobs(query.type);
    if (!globs) throw new ToolError(`Unknown file type "${query.type}"; known types: ${Object.keys(FILE_TYPES).join(", ")}`);
    const compiled = globs.map((g) => new Bun.Glob(g));
    tests.push((rel) => compiled.some((g) => g.match(basename(rel))));
  }
  return (rel) => tests.every((t) => t(rel));
}

/** The file's lines (CR of CRLF removed), or null for binary, unreadable or oversized files. */
function readLines(path: string): string[] | null {
  let bytes: Buffer;
  try {
    const file = readRegularFile(path, MAX_FILE_BYTES, { refuseOver: MAX_FILE_BYTES });
    if (file.kind !== "file" || file.truncated) return null;
    bytes = file.bytes;
  } catch {
    return null;
  }
  const decoded = decodeText(bytes);
  if (!decoded) return null;
  const lines = decoded.text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** Appends matches with their context, rg style: ":" marks a match, "-" context, "--" a gap. */
function contentLines(file: string, lines: string[], matches: number[], query: GrepQuery, out: GrepLines): void {
  const isMatch = new Set(matches);
  const hasContext = query.before > 0 || query.after > 0;
  let printedUpTo = -1;
  for (const m of matches) {
    const from = Math.max(0, m - query.before, printedUpTo + 1);
    const to = Math.min(lines.length - 1, m + query.after);
    // rg separates groups that do not touch, across files too.
    if (hasContext && out.length > 0 && (printedUpTo === -1 || from > printedUpTo + 1)) out.push("--");
    for (let i = from; i <= to; i++) {
      const sep = isMatch.has(i) ? ":" : "-";
      out.push(query.lineNumbers ? `${file}${sep}${i + 1}${sep}${lines[i]}` : `${file}${sep}${lines[i]}`);
    }
    printedUpTo = Math.max(printedUpTo, to);
  }
}
