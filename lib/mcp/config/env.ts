/**
 * The MCP environment variables, read here and nowhere else: Claude Code's `MCP_TIMEOUT` (server
 * start-up, ms), `MCP_TOOL_TIMEOUT` (one tool call, ms) and `MAX_MCP_OUTPUT_TOKENS` (one tool
 * result, tokens), and our `MCP_REQUIRE_APPROVAL`, `MCP_CLIENT_SECRET` and `MCP_SAMPLING_*`. An unset or unusable
 * value gives the default.
 */

/** Default for MCP_TIMEOUT: handshake and each list request at start-up, in ms. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
/** Default for MCP_TOOL_TIMEOUT: one tools/call (also prompts/get, resources/read), in ms. */
export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;
/** Default for MAX_MCP_OUTPUT_TOKENS, in tokens. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;
/** Defaults for a server's sampling: requests per server per run, maxTokens cap, steady rate per second (after a burst of 10). */
export const DEFAULT_SAMPLING_MAX_REQUESTS = 50;
export const DEFAULT_SAMPLING_MAX_TOKENS = 8192;
export const DEFAULT_SAMPLING_PER_SECOND = 5;

export interface McpEnv {
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  maxOutputTokens: number;
  /** `MCP_REQUIRE_APPROVAL` (1, true, yes): print mode starts only approved project servers. */
  requireApproval: boolean;
  /** `MCP_CLIENT_SECRET`: the OAuth client secret for `mcp add --client-secret`, never a command-line word. */
  clientSecret?: string;
  /** `MCP_SAMPLING_MAX_REQUESTS`, `MCP_SAMPLING_MAX_TOKENS`, `MCP_SAMPLING_PER_SECOND`: what one server's sampling may spend. */
  sampling: { maxRequests: number; maxTokens: number; perSecond: number };
}

export function readMcpEnv(env: Record<string, string | undefined> = process.env): McpEnv {
  const positive = (name: string, fallback: number, integer = false) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value)) ? value : fallback;
  };
  return {
    startupTimeoutMs: positive("MCP_TIMEOUT", DEFAULT_STARTUP_TIMEOUT_MS),
    toolTimeoutMs: positive("MCP_TOOL_TIMEOUT", DEFAULT_TOOL_TIMEOUT_MS),
    maxOutputTokens: positive("MAX_MCP_OUTPUT_TOKENS", DEFAULT_MAX_OUTPUT_TOKENS, true),
    requireApproval: ["1", "true", "yes"].includes((env.MCP_REQUIRE_APPROVAL ?? "").toLowerCase()),
    clientSecret: env.MCP_CLIENT_SECRET || undefined,
    sampling: {
      maxRequests: positive("MCP_SAMPLING_MAX_REQUESTS", DEFAULT_SAMPLING_MAX_REQUESTS, true),
      maxTokens: positive("MCP_SAMPLING_MAX_TOKENS", DEFAULT_SAMPLING_MAX_TOKENS, true),
      perSecond: positive("MCP_SAMPLING_PER_SECOND", DEFAULT_SAMPLING_PER_SECOND),
    },
  };
}

/** The registry's timeouts from `readMcpEnv`. */
export function timeouts(env: McpEnv): { startupTimeoutMs: number; toolTimeoutMs: number } {
  return { startupTimeoutMs: env.startupTimeoutMs, toolTimeoutMs: env.toolTimeoutMs };
}
