/**
 * Ranks tools against a keyword query for ToolSearch (tool-search.ts). Pure: no I/O.
 *
 * Why this scoring:
 * - A model searching for a tool describes what it wants done ("create issue", "screenshot
 *   page"), and tool names are built from exactly those verbs and nouns, so a term found in the
 *   tool's own name weighs most (6). The server's name says which product (github, slack) and
 *   weighs next (4). Argument names say what the tool acts on (`pull_number`, `channel_id`) (2.5).
 *   Descriptions are long and shared boilerplate is common, so a term there weighs least (1).
 * - Each term's weight is scaled by its inverse document frequency over the deferred tools:
 *   among 418 tools "list" or "get" appear in hundreds and say little, "screenshot" in three.
 * - A term that only prefixes a word (or that a word prefixes: "repo" and "repository") counts
 *   half, so inflections and abbreviations still match without a stemmer's surprises.
 * - The sum is multiplied by the share of query terms matched, so a tool matching all of "read
 *   spreadsheet cells" beats one whose name holds only the rarest of them.
 * - `+term` requires the term in the tool's or server's name; ties keep the servers' order.
 */

export interface RankedTool {
  /** The API name, returned as given. */
  name: string;
  /** The server's own name for the tool, and the server's name. */
  tool: string;
  server: string;
  description: string;
  /** Input schema property names. */
  args: string[];
  /** Input schema property descriptions, searched like the description. */
  argText: string;
}

const STOP = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "in",
  "on",
  "for",
  "and",
  "or",
  "with",
  "my",
  "me",
  "is",
  "it",
  "from",
  "by",
  "this",
  "that",
  "please",
  "tool",
  "mcp",
]);
const WEIGHTS = { name: 6, server: 4, arg: 2.5, description: 1 } as const;

/** Lower-case words of `text`: camelCase and snake_case split, plural `s` dropped, stop words kept. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1)
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

interface Indexed {
  tool: RankedTool;
  fields: [keyof typeof WEIGHTS, Set<string>][];
}

function index(tool: RankedTool): Indexed {
  return {
    tool,
    fields: [
      ["name", new Set(words(tool.tool))],
      ["server", new Set(words(tool.server))],
      ["arg", new Set(tool.args.flatMap(words))],
      ["description", new Set(words(`${tool.description} ${tool.argText}`))],
    ],
  };
}

/** 1 for the word itself, 0.5 when one prefixes the other (both at least 4 letters), else 0. */
function matchOf(term: string, set: Set<string>): number {
  if (set.has(term)) return 1;
  if (term.length < 4) return 0;
  for (const w of set) if (w.length >= 4 && (w.startsWith(term) || term.startsWith(w))) return 0.5;
  return 0;
}

/**
 * The best `limit` tools for `query`, best first; tools scoring 0 are left out.
 * `query` is free text; a word written `+word` must appear in the tool's or the server's name.
 */
export function rankTools(tools: readonly RankedTool[], query: string, limit: number): RankedTool[] {
  const raw = query.split(/\s+/).filter(Boolean);
  const required = raw.filter((w) => w.startsWith("+")).flatMap((w) => words(w.slice(1)));
  const terms = [...new Set(raw.flatMap((w) => words(w.replace(/^\+/, ""))).filter((w) => !STOP.has(w)))];
  if (!terms.length) return [];
  const indexed = tools.map(index);
  const idf = new Map<string, number>();
  for (const term of terms) {
    const df = indexed.filter((t) => t.fields.some(([, set]) => matchOf(term, set) > 0)).length;
    idf.set(term, Math.log(1 + indexed.length / (1 + df)));
  }
  const scored: { tool: RankedTool; score: number; order: number }[] = [];
  indexed.forEach((t, order) => {
    const names = [t.fields[0]![1], t.fields[1]![1]];
    if (!required.every((r) => names.some((set) => matchOf(r, set) === 1))) return;
    let score = 0;
    let matched = 0;
    for (const term of terms) {
      let best = 0;
      for (const [field, set] of t.fields) best = Math.max(best, WEIGHTS[field] * matchOf(term, set));
      if (best > 0) matched++;
      score += best * idf.get(term)!;
    }
    if (score > 0) scored.push({ tool: t.tool, score: (score * matched) / terms.length, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, limit).map((s) => s.tool);
}
