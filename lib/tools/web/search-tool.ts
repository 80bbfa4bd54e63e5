/**
 * Claude Code's `WebSearch` tool (`query`, `allowed_domains`, `blocked_domains`): a nested model
 * request that uses the API's server tool `web_search_20250305` (the agent makes it: see
 * agent/opt-in-tools.ts); the result is that request's summary followed by its sources as Markdown
 * links, with a reminder to cite them. An endpoint that refuses the server tool is one error result.
 */
import type { Tool, ToolOutput } from "../tool.ts";
import { ToolError } from "../tool-error.ts";

export const WEB_SEARCH_TOOL = "WebSearch";

export interface SearchOutcome {
  /** The nested request's text. */
  text: string;
  /** The pages its searches found, in order, without repeats. */
  sources: { title: string; url: string }[];
}

export interface WebSearchDeps {
  search(query: string, domains: { allowed?: string[]; blocked?: string[] }, signal: AbortSignal): Promise<SearchOutcome>;
}

const SCHEMA = {
  type: "object" as const,
  properties: {
    query: { type: "string", minLength: 2, description: "The search query" },
    allowed_domains: { type: "array", items: { type: "string" }, description: "Only include results from these domains" },
    blocked_domains: { type: "array", items: { type: "string" }, description: "Never include results from these domains" },
  },
  required: ["query"],
  additionalProperties: false,
};

function domains(input: Record<string, unknown>, key: string): string[] | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((d) => typeof d !== "string")) throw new ToolError(`Invalid input: "${key}" must be an array of domain names`);
  return value.length ? (value as string[]) : undefined;
}

export function webSearchTool(deps: WebSearchDeps): Tool {
  return {
    name: WEB_SEARCH_TOOL,
    description:
      "Searches the web and returns a summary of the results with their sources as Markdown links. Use it for anything after your " +
      "knowledge cutoff or that changes over time. `allowed_domains` keeps only results from those domains; `blocked_domains` drops them. " +
      "Cite the sources you use as Markdown links in your answer.",
    inputSchema: SCHEMA,
    readOnly: true,
    summary: (input) => (typeof input.query === "string" ? input.query : undefined),
    async run(input, ctx): Promise<ToolOutput> {
      const query = typeof input.query === "string" ? input.query.trim() : "";
      if (query.length < 2) throw new ToolError('Invalid input: "query" must be at least 2 characters');
      const allowed = domains(input, "allowed_domains");
      const blocked = domains(input, "blocked_domains");
      if (allowed && blocked) throw new ToolError("Invalid input: give allowed_domains or blocked_domains, not both");
      const found = await deps.search(query, { allowed, blocked }, ctx.signal);
      const sources = found.sources.length
        ? `\n\nSources:\n${found.sources.map((s) => `- [${s.title.replace(/[[\]\u0000-\u001f\u007f-\u009f]/g, "") || s.url}](${s.url})`).join("\n")}`
        : "\n\n(No sources were returned.)";
      return {
        content: `Web search results for query: ${JSON.stringify(query)}\n\n${found.text.trim()}${sources}\n\nReminder: cite the sources you use in your answer, as Markdown links.`,
      };
    },
  };
}
