/**
 * Tab completion for the interactive prompt:
 * - `/he` → slash commands (built-in, custom, MCP prompts `mcp__<server>__<prompt>`);
 * - `@sr` → files and folders relative to the working directory (folders end in `/`), MCP
 *   resources as `@<server>:<uri>`, and resource templates shown as written
 *   (`@<server>:file:///{path}`), which insert the text before their first `{`;
 * - `@<server>:<uri>` inside a template's variable → that variable's values, asked of the server
 *   with `completion/complete` (MCP 2025-11-25, server/utilities/completion) when it declared
 *   `completions`: the only case that answers with a promise.
 */
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { literalPrefix, templatePosition } from "../../../mcp/protocol/uri-template.ts";

/** Most candidates listed for one Tab press. */
export const MAX_CANDIDATES = 200;

/** A resource template of a connected server. */
export interface TemplateSource {
  server: string;
  uriTemplate: string;
  /** The server declared `completions`: its variables' values can be asked for. */
  completes: boolean;
}

export interface CompletionSources {
  cwd: string;
  /** Command names without the slash. */
  commands(): string[];
  /** MCP resources as `server:uri`. */
  resources(): string[];
  /** Resource templates of connected servers; none when omitted. */
  templates?(): TemplateSource[];
  /**
   * Values of `variable` of the template starting with `value` (`completion/complete`); `context`
   * holds the variables already typed. May reject: the completion then offers nothing from it.
   */
  completeValue?(template: TemplateSource, variable: string, value: string, context: Record<string, string>): Promise<string[]>;
}

/**
 * One Tab press: the text at the end of the input it replaces, what replaces it (the one
 * candidate, or what all candidates share), and the candidates to list under the prompt.
 */
export interface Completion {
  replaced: string;
  insert: string;
  shown: string[];
}

/** A candidate: how it is listed, what choosing it inserts, and whether a space follows it then. */
interface Candidate {
  shown: string;
  insert: string;
  final: boolean;
}

export type Completer = (line: string) => Completion | Promise<Completion>;

/** A completer over `sources`; it never throws and its promise never rejects (a bad folder just has no entries). */
export function createCompleter(sources: CompletionSources): Completer {
  return (line) => {
    if (/^\/\S*$/.test(line)) {
      const names = [...new Set(sources.commands())]
        .map((n) => `/${n}`)
        .filter((n) => n.startsWith(line))
        .sort();
      return choose(
        line,
        names.map((n) => ({ shown: n, insert: n, final: true })),
      );
    }
    const mention = /(?:^|\s)(@[^\s"]*)$/.exec(line)?.[1];
    if (mention === undefined) return { replaced: line, insert: line, shown: [] };
    const prefix = mention.slice(1);
    const known: Candidate[] = [
      ...fileCandidates(sources.cwd, prefix).map((f) => ({ shown: `@${f}`, insert: `@${f}`, final: !f.endsWith("/") })),
      ...sources
        .resources()
        .filter((r) => r.startsWith(prefix))
        .map((r) => ({ shown: `@${r}`, insert: `@${r}`, final: true })),
    ];
    const asked: Promise<Candidate[]>[] = [];
    const hints: string[] = [];
    for (const template of sources.templates?.() ?? []) {
      const head = `${template.server}:`;
      if (!prefix.startsWith(head)) {
        // `@ser` may become `@server:` and then the template's prefix.
        if ((head + literalPrefix(template.uriTemplate)).startsWith(prefix)) known.push(templateCandidate(template));
        continue;
      }
      const position = templatePosition(template.uriTemplate, prefix.slice(head.length));
      if (position?.kind === "literal") {
        known.push({ shown: `@${head}${position.shown}`, insert: `@${head}${position.text}`, final: position.final });
      } else if (position?.kind === "variable") {
        // Inside a variable nothing else can be offered: the template itself shows what is expected.
        hints.push(`@${head}${template.uriTemplate}`);
        if (!template.completes || !sources.completeValue) continue;
        const { variable, value, context } = position;
        const values = sources.completeValue(template, variable, value, context).catch(() => [] as string[]);
        asked.push(
          values.then((list) =>
            list.map((v) => {
              const filled = position.fill(v);
              return { shown: `@${head}${filled.shown}`, insert: `@${head}${filled.text}`, final: filled.final };
            }),
          ),
        );
      }
    }
    if (!asked.length) return choose(mention, known, hints);
    return Promise.all(asked).then((lists) => choose(mention, [...known, ...lists.flat()], hints));
  };
}

/** A template not yet reached: listed as written, inserting its text before the first `{`. */
function templateCandidate(t: TemplateSource): Candidate {
  const literal = literalPrefix(t.uriTemplate);
  return { shown: `@${t.server}:${t.uriTemplate}`, insert: `@${t.server}:${literal}`, final: literal === t.uriTemplate };
}

/**
 * The one candidate inserted (with a space when it is whole), or the shared prefix and the list;
 * with no candidate at all, `hints` (templates whose variable is being typed) are listed.
 */
function choose(replaced: string, all: Candidate[], hints: string[] = []): Completion {
  const seen = new Set<string>();
  const candidates = all.filter((c) => !seen.has(c.shown) && seen.add(c.shown)).slice(0, MAX_CANDIDATES);
  if (candidates.length === 0) return { replaced, insert: replaced, shown: hints };
  if (candidates.length === 1) {
    const only = candidates[0]!;
    return { replaced, insert: only.insert + (only.final ? " " : ""), shown: [] };
  }
  return { replaced, insert: commonPrefix(candidates.map((c) => c.insert)), shown: candidates.map((c) => c.shown) };
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
