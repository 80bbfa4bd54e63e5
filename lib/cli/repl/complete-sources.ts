/**
 * What Tab completion draws on in the session (complete.ts): command names, the connected
 * servers' resources and resource templates, and `completion/complete` for a template's variable
 * (MCP 2025-11-25, server/utilities/completion).
 */
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import type { CompletionSources, TemplateSource } from "./prompt/complete.ts";
import { commandNames, resourceMentions } from "./commands.ts";

/** How long one Tab press waits for a server's `completion/complete` answer (ms); then it offers nothing from it. */
export const COMPLETION_TIMEOUT_MS = 5000;

/** A spec's cap on `completion.values` (server/utilities/completion#completion-results). */
const MAX_VALUES = 100;

/** The session's completion sources, read afresh on every Tab (servers connect and re-list meanwhile). */
export function completionSources(runtime: AgentRuntime, cwd: string): CompletionSources {
  return {
    cwd,
    commands: () => commandNames(runtime),
    resources: () => resourceMentions(runtime),
    templates: () => templateSources(runtime),
    completeValue: async (template, variable, value, context) => {
      if (!runtime.registry) return [];
      const ref = { type: "ref/resource" as const, uri: template.uriTemplate };
      const request = { ref, argument: { name: variable, value }, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) };
      const answer = await runtime.registry.complete(template.server, request, { timeoutMs: COMPLETION_TIMEOUT_MS });
      const values = answer?.completion?.values;
      return Array.isArray(values) ? values.filter((v): v is string => typeof v === "string" && !/\s/.test(v)).slice(0, MAX_VALUES) : [];
    },
  };
}

/** Connected servers' templates; one with white space in it could not be typed as a mention. */
function templateSources(runtime: AgentRuntime): TemplateSource[] {
  return runtime
    .mcpServers()
    .flatMap((s) =>
      s.status === "connected"
        ? (s.resourceTemplates ?? [])
            .filter((t) => !/\s/.test(t.uriTemplate))
            .map((t) => ({ server: s.name, uriTemplate: t.uriTemplate, completes: Boolean(s.capabilities?.completions) }))
        : [],
    );
}
