/**
 * What a Grep call asks for, shared by the ripgrep runner and the TypeScript fallback,
 * which must print the same lines for it.
 */
import type { SearchExclusions } from "../tool.ts";

export type GrepOutputMode = "content" | "files_with_matches" | "count";

export interface GrepQuery {
  /** A regular expression (ripgrep syntax; the fallback uses JavaScript's, which agrees on the common part). */
  pattern: string;
  /** Absolute path of the file or directory to search. */
  path: string;
  /** ripgrep `--glob`: without "/" it matches file names at any depth, with "/" the path under `path`; "!" negates. */
  glob?: string;
  /** Paths the run's Read rules deny: excluded from the search (ToolContext.excluded). */
  excluded?: SearchExclusions;
  /** ripgrep `--type` name, e.g. "ts", "py". */
  type?: string;
  mode: GrepOutputMode;
  ignoreCase: boolean;
  /** Prefix content lines with their 1-based line number. */
  lineNumbers: boolean;
  /** Context lines before / after each match (content mode). */
  before: number;
  after: number;
}

/**
 * Output lines, in ripgrep's formats: files_with_matches → `path`; count → `path:N`;
 * content → `path:N:line` for matches and `path-N-line` for context (without N when
 * lineNumbers is off), with `--` between separated context groups.
 */
export type GrepLines = string[];
