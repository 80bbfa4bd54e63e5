/**
 * The web tools of a run, wired to the agent: WebFetch's side request goes to the small model of
 * the model table (or ANTHROPIC_SMALL_FAST_MODEL), and its guard learns which hosts an allow rule
 * names (`--allowedTools` and the settings files). Whether the tools are offered at all is
 * tools/web/offered.ts's rule.
 */
import type { Tool } from "../tools/tool.ts";
import { webFetchTool } from "../tools/web/fetch-tool.ts";
import { ruleNamesHost, WEB_FETCH_TOOL } from "../tools/web/domain-rule.ts";
import { webToolOffered, type OfferSources } from "../tools/web/offered.ts";
import { SIDE_SYSTEM, sidePrompt } from "../tools/web/side-prompt.ts";
import { replyText } from "./messages.ts";
import type { ModelClient } from "./model.ts";
import { modelForAlias } from "./model-table.ts";
import type { SettingsHooks } from "./policy/turn-hooks.ts";

export interface WebToolOptions {
  mode: OfferSources["mode"];
  env: Record<string, string | undefined>;
  allowedTools: readonly string[];
  settings?: SettingsHooks;
  /** A model client for `id` that counts toward the run's usage. */
  createModel(id: string): ModelClient;
}

/** The small, fast model WebFetch's answers come from. */
export function smallModel(env: Record<string, string | undefined>): string {
  return env.ANTHROPIC_SMALL_FAST_MODEL || env.ANTHROPIC_DEFAULT_HAIKU_MODEL || modelForAlias("haiku") || "claude-haiku-4-5";
}

/** The web tools this run offers (none, or WebFetch), built once. */
export function webTools(o: WebToolOptions): Tool[] {
  const rules = o.settings?.settings.rules.rules ?? [];
  const sources: OfferSources = {
    mode: o.mode,
    env: o.env,
    allowedTools: o.allowedTools,
    rules: rules.map((r) => ({ text: r.source.text, behavior: r.source.behavior, scope: r.source.file.scope })),
  };
  if (!webToolOffered(WEB_FETCH_TOOL, sources)) return [];
  let side: ModelClient | undefined;
  const fetchTool = webFetchTool({
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
  return [fetchTool];
}
