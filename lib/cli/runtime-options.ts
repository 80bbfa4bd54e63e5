/**
 * The flags every mode shares, as the session's options: one mapping for -p and the interactive session.
 */
import type { RuntimeOptions } from "../agent/runtime.ts";
import { DEFAULT_MODEL } from "../agent/model.ts";
import type { CliArgs } from "./args.ts";

type Callbacks = Pick<RuntimeOptions, "log" | "onMcpStart" | "onMcpServerSettled" | "approveProjectServers">;

/**
 * The session's options from the parsed flags: --model, else $ANTHROPIC_MODEL, else the default
 * model; the MCP, tool, prompt and diagnostic flags as they are; `callbacks` for the mode's display.
 */
export function runtimeOptions(args: CliArgs, cwd: string, callbacks: Callbacks): RuntimeOptions {
  return {
    cwd,
    model: args.model ?? (process.env.ANTHROPIC_MODEL || DEFAULT_MODEL),
    mcpConfig: args.mcpConfig,
    strictMcpConfig: args.strictMcpConfig,
    disallowedTools: args.disallowedTools,
    systemPrompt: args.systemPrompt,
    appendSystemPrompt: args.appendSystemPrompt,
    sampling: args.sampling,
    verbose: args.verbose,
    debug: args.debug,
    ...callbacks,
  };
}
