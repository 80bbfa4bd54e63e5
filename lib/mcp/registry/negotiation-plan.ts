/**
 * The negotiation plan for one server (MCP 2026-07-28, basic/versioning §Backward Compatibility):
 * `initialize` first by default; `server/discover` first when `MCP_PROTOCOL_NEGOTIATION=auto` (Claude
 * Code's variable, read from the process environment only, never from a settings file) or the entry
 * says `"protocolVersion": "2026-07-28"`; `MCP_PROTOCOL_NEGOTIATION=legacy` never probes. Only an
 * opted-in plan reads and writes remembered verdicts (verdicts.ts).
 */
import { userConfigDir } from "../../shared/claude-home.ts";
import type { ServerConfig } from "../config/load.ts";
import { DEFAULT_STARTUP_TIMEOUT_MS } from "../config/env.ts";
import type { Era, NegotiationPlan } from "../session/negotiate.ts";
import { readVerdict, rememberVerdict, verdictKey } from "./era-verdicts.ts";

export type Plan = NegotiationPlan & { remember?: (era: Era, version: string) => void };

/**
 * The plan for `config`. `mcpTimeoutMs` is MCP_TIMEOUT: a probe waits min(the entry's timeout, MCP_TIMEOUT / 3).
 * A remembered legacy verdict skips the discovery probe (initialize first; its JSON-RPC error still probes).
 */
export function negotiationPlan(
  config: ServerConfig,
  cwd: string,
  mcpTimeoutMs = DEFAULT_STARTUP_TIMEOUT_MS,
  env: Record<string, string | undefined> = process.env,
): Plan {
  const probeTimeoutMs = Math.max(1, Math.min(config.timeoutMs ?? mcpTimeoutMs, Math.ceil(mcpTimeoutMs / 3)));
  const mode = env.MCP_PROTOCOL_NEGOTIATION?.toLowerCase();
  if (mode === "legacy") return { discoverFirst: false, probeTimeoutMs, probe: false };
  const optedIn = mode === "auto" || config.protocolVersion === "2026-07-28";
  if (!optedIn) return { discoverFirst: false, probeTimeoutMs };
  const key = verdictKey(config, cwd);
  if (!key) return { discoverFirst: true, probeTimeoutMs };
  const dir = userConfigDir(env);
  const remembered = readVerdict(dir, key);
  return {
    discoverFirst: remembered?.era !== "legacy",
    probeTimeoutMs,
    remember: (era, protocolVersion) => rememberVerdict(dir, key, { era, protocolVersion, at: new Date().toISOString() }),
  };
}
