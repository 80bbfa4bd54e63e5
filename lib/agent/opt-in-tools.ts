/**
 * The opt-in tools of this round (WebFetch, WebSearch, NotebookEdit), wired to the agent; whether
 * the model is offered them is offered-tools.ts's one rule, not this file's: WebFetch's side request goes to the small model of the model table (or
 * ANTHROPIC_SMALL_FAST_MODEL), its guard learns which hosts an allow rule names (`--allowedTools`
 * and the settings files), and WebSearch's nested request goes to the run's model.
 */
import type { Tool } from "../tools/tool.ts";
import { webFetchTool } from "../tools/web/fetch-tool.ts";
import { ruleNamesHost } from "../tools/web/domain-rule.ts";
import { notebookEditTool } from "../tools/notebook-edit.ts";
import { SIDE_SYSTEM, sidePrompt } from "../tools/web/side-prompt.ts";
import { type SearchOutcome, webSearchTool } from "../tools/web/search-tool.ts";
import { ToolError } from "../tools/tool-error.ts";
import { replyText } from "./messages.ts";
import { ModelError, type ModelClient } from "./model/model.ts";
import { modelForAlias } from "./model/model-table.ts";
import type { SettingsHooks } from "./policy/turn-hooks.ts";
import { planTools } from "./plan/tools.ts";

export interface WebToolOptions {
  env: Record<string, string | undefined>;
  allowedTools: readonly string[];
  settings?: SettingsHooks;
  /** A model client for `id` that counts toward the run's usage. */
  createModel(id: string): ModelClient;
  /** The run's current model: WebSearch's nested request goes to it, as Claude Code's does. */
  mainModel(): ModelClient;
}

const SEARCH_SYSTEM =
  "You search the web for another assistant, which is waiting for the results and can search again itself. Search once, then reply with a short summary of what you found.";

/** The small, fast model WebFetch's answers come from. */
export function smallModel(env: Record<string, string | undefined>): string {
  return env.ANTHROPIC_SMALL_FAST_MODEL || env.ANTHROPIC_DEFAULT_HAIKU_MODEL || modelForAlias("haiku") || "claude-haiku-4-5";
}

/** The opt-in tools, built once so WebFetch's caches last the run; offered-tools.ts filters what the model sees. */
export function optInTools(o: WebToolOptions): Tool[] {
  const rules = o.settings?.settings.rules.rules ?? [];
  return [
    fetchTool(o, rules),
    webSearchTool({ search: (query, domains, signal) => search(o.mainModel(), query, domains, signal) }),
    notebookEditTool,
    // Plan mode's ExitPlanMode, the task list and AskUserQuestion (plan/tools.ts).
    ...planTools(),
  ];
}

type Rules = NonNullable<WebToolOptions["settings"]>["settings"]["rules"]["rules"];

function fetchTool(o: WebToolOptions, rules: Rules): Tool {
  let side: ModelClient | undefined;
  return webFetchTool({
    env: o.env,
    hostAllowed: (host) =>
      o.allowedTools.some((t) => ruleNamesHost(t, host)) || rules.some((r) => r.source.behavior === "allow" && ruleNamesHost(r.source.text, host)),
    async answer(text, prompt, signal) {
      side ??= o.createModel(smallModel(o.env));
      const reply = await side.create(
        { system: SIDE_SYSTEM, messages: [{ role: "user", content: [{ type: "text", text: sidePrompt(text, prompt) }] }], tools: [], maxTokens: 4096 },
        { signal },
      );
      return replyText(reply.content) || "(the page's reader gave no answer)";
    },
  });
}

/** One nested request with the API's web search server tool; its text and the pages it found. */
async function search(model: ModelClient, query: string, domains: { allowed?: string[]; blocked?: string[] }, signal: AbortSignal): Promise<SearchOutcome> {
  const tool = {
    type: "web_search_20250305",
    name: "web_search",
    max_uses: 8,
    ...(domains.allowed ? { allowed_domains: domains.allowed } : {}),
    ...(domains.blocked ? { blocked_domains: domains.blocked } : {}),
  };
  let reply: Awaited<ReturnType<ModelClient["create"]>>;
  try {
    reply = await model.create(
      {
        system: SEARCH_SYSTEM,
        messages: [{ role: "user", content: [{ type: "text", text: `Perform a web search for the query: ${query}` }] }],
        tools: [tool as never],
      },
      { signal },
    );
  } catch (err) {
    if (err instanceof ModelError) throw new ToolError(`web search is not available here: the API refused the request (${err.message})`);
    throw err;
  }
  const sources: SearchOutcome["sources"] = [];
  for (const block of reply.content as { type: string; content?: unknown }[]) {
    if (block.type !== "web_search_tool_result" || !Array.isArray(block.content)) continue;
    for (const r of block.content as { type?: string; url?: unknown; title?: unknown }[]) {
      if (r.type === "web_search_result" && typeof r.url === "string" && !sources.some((s) => s.url === r.url)) {
        sources.push({ url: r.url, title: typeof r.title === "string" ? r.title : r.url });
      }
    }
  }
  return { text: replyText(reply.content), sources };
}
