/**
 * The flags every mode shares, as the session's options: one mapping for -p and the interactive session.
 */
import type { RuntimeOptions } from "../../agent/runtime/runtime-options.ts";
import { DEFAULT_MODEL } from "../../agent/model/model.ts";
import { elicitationPolicy } from "../../agent/elicitation-policy.ts";
import { agentAskedFor } from "../../agent/subagents/offered.ts";
import type { CliArgs } from "./args.ts";
import type { SettingsHooks } from "../../agent/policy/turn-hooks.ts";
import { mcpReporter } from "../ui/server-lines.ts";
import { lazyAuthFor } from "../oauth/lazy.ts";
import { colorEnabled, plainUnlessColor } from "../ui/style.ts";

type Callbacks = Pick<
  RuntimeOptions,
  "log" | "onMcpStart" | "onMcpServerSettled" | "approveProjectServers" | "background" | "samplingConsent" | "elicitation" | "skillGate"
>;

/**
 * The session's options from the parsed flags: --model, else $ANTHROPIC_MODEL, else the default
 * model (a resumed session's saved model before $ANTHROPIC_MODEL, the settings' `model` after it); the MCP, tool, prompt and diagnostic flags as they are; `callbacks` for the mode's display,
 * with servers' ANSI codes stripped from logged lines unless stderr takes colour. `--elicitation` becomes the headless
 * elicitation policy (its lines through `log`); an `elicitation` in `callbacks` (a person's form) replaces it.
 */
export function runtimeOptions(args: CliArgs, cwd: string, callbacks: Callbacks, savedModel?: string, settings?: SettingsHooks): RuntimeOptions {
  const log = plainUnlessColor(callbacks.log, colorEnabled(process.stderr));
  const mode = args.inputFormat === "stream-json" ? "host" : args.print || !process.stdin.isTTY ? "print" : "session";
  return {
    cwd,
    // A resumed conversation goes on with its own model unless --model says otherwise.
    model: args.model ?? (savedModel || process.env.ANTHROPIC_MODEL || settings?.model || DEFAULT_MODEL),
    settings,
    mcpConfig: args.mcpConfig,
    strictMcpConfig: args.strictMcpConfig,
    disallowedTools: args.disallowedTools,
    allowedTools: args.allowedTools,
    offer: {
      mode,
      env: process.env,
      allowedTools: args.allowedTools,
      rules: (settings?.settings.rules.rules ?? []).map((r) => ({ text: r.source.text, behavior: r.source.behavior, scope: r.source.file.scope })),
      tools: args.tools,
      // --agents, a flag naming Agent (or Task), or the working directory's own agent files ask for the Agent tool.
      flagged: new Set(agentAskedFor({ allowedTools: args.allowedTools, tools: args.tools, agentsFlag: args.agents !== undefined, cwd }) ? ["Agent"] : []),
    },
    subagents: {
      mode,
      allowedTools: args.allowedTools,
      flag: args.agents,
      sources: args.settingSources === undefined ? undefined : skillSources(args.settingSources),
    },
    systemPrompt: args.systemPrompt,
    appendSystemPrompt: args.appendSystemPrompt,
    sampling: args.sampling,
    cache: args.cache && !truthy(process.env.DISABLE_PROMPT_CACHING),
    toolSearch: process.env.ENABLE_TOOL_SEARCH,
    projectToolsFirst: args.print && args.inputFormat !== "stream-json",
    autoCompactPercent: process.env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE,
    keepToolResults: args.persistSession,
    verbose: args.verbose,
    debug: args.debug,
    // Neither -p nor the interactive start-up logs in: a server that needs it says so (/mcp offers the login).
    authFor: lazyAuthFor({ allowLogin: false, debug: args.debug ? callbacks.log : undefined, stderr: callbacks.log }),
    // Without the flag nothing is declared: servers see exactly {roots, sampling}.
    elicitation: args.elicitation && elicitationPolicy(args.elicitation, log),
    skillSources: args.settingSources === undefined ? undefined : skillSources(args.settingSources),
    ...callbacks,
    log,
    mcpEvents: mcpReporter(log, args),
  };
}

/** An environment switch is on when set to anything but "", "0", "false" or "no". */
function truthy(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false", "no"].includes(value.trim().toLowerCase());
}

/** Which skills folders `--setting-sources` lets in ("" none; settings files.ts has already refused unknown names). */
function skillSources(list: string): { user: boolean; project: boolean } {
  const names = list.split(",").map((v) => v.trim());
  return { user: names.includes("user"), project: names.includes("project") };
}
