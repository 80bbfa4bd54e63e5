/**
 * Tab completion for the interactive prompt (a node:readline `completer`):
 * - `/he` → slash commands (built-in, custom, MCP prompts `mcp__<server>__<prompt>`);
 * - `@sr` → files and folders relative to the working directory (folders end in `/`), and MCP
 *   resources as `@<server>:<uri>`.
 * Returns readline's `[candidates, replacedText]`; readline inserts a single candidate, or the
 * common prefix and a listing of several.
 */
import { readdirSync } from "node:fs";
import { resolve } from "node:path";

/** Most candidates listed for one Tab press. */
export const MAX_CANDIDATES = 200;

export interface CompletionSources {
  cwd: string;
  /** Command names without the slash. */
  commands(): string[];
  /** MCP resources as `server:uri`. */
  resources(): string[];
}

export type Completer = (line: string) => [string[], string];

/** A readline completer over `sources`; it never throws (a bad folder just has no entries). */
export function createCompleter(sources: CompletionSources): Completer {
  return (line) => {
    if (/^\/\S*$/.test(line)) {
      const names = [...new Set(sources.commands())].map((n) => `/${n}`);
      return [
        names
          .filter((n) => n.startsWith(line))
          .sort()
          .slice(0, MAX_CANDIDATES),
        line,
      ];
    }
    const mention = /(?:^|\s)(@[^\s"]*)$/.exec(line)?.[1];
    if (mention === undefined) return [[], line];
    const prefix = mention.slice(1);
    const resources = sources.resources().filter((r) => r.startsWith(prefix));
    const hits = [...fileCandidates(sources.cwd, prefix), ...resources].map((c) => `@${c}`);
    return [hits.slice(0, MAX_CANDIDATES), mention];
  };
}

/**
 * Entries of the folder named by `prefix` (up to its last `/`) whose names start with the rest.
 * Hidden entries only when the typed name starts with a dot. Names with spaces come quoted
 * (`"my notes.txt"`), the mention syntax for them.
 */
export function fileCandidates(cwd: string, prefix: string): string[] {
  const slash = prefix.lastIndexOf("/");
  const dir = prefix.slice(0, slash + 1);
  const base = prefix.slice(slash + 1);
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(resolve(cwd, dir || "."), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.name.startsWith(base) && (base.startsWith(".") || !e.name.startsWith(".")))
    .map((e) => dir + e.name + (e.isDirectory() ? "/" : ""))
    .sort()
    .map((p) => (/\s/.test(p) ? `"${p}"` : p));
}

/** The longest prefix all `words` share. */
export function commonPrefix(words: string[]): string {
  let prefix = words[0] ?? "";
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** Rows shown under the prompt for several candidates. */
export const MAX_CANDIDATE_ROWS = 4;

/**
 * Candidates laid out in columns across `columns` cells, at most MAX_CANDIDATE_ROWS rows; the
 * last row says how many more there are when they do not all fit.
 */
export function completionRows(candidates: string[], columns: number): string[] {
  const cell = Math.min(columns, Math.max(...candidates.map((c) => Bun.stringWidth(c))) + 2);
  const perRow = Math.max(1, Math.floor(columns / cell));
  const rows: string[] = [];
  for (let i = 0; i < candidates.length && rows.length < MAX_CANDIDATE_ROWS; i += perRow) {
    rows.push(
      candidates
        .slice(i, i + perRow)
        .map((c) => c + " ".repeat(Math.max(0, cell - Bun.stringWidth(c))))
        .join("")
        .trimEnd(),
    );
  }
  const shown = Math.min(candidates.length, MAX_CANDIDATE_ROWS * perRow);
  if (shown < candidates.length) rows.push(`… ${candidates.length - shown} more`);
  return rows;
}
