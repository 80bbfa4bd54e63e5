/**
 * What one server's `sampling/createMessage` requests may spend of the user's API budget in one
 * run, in every mode: at most `maxRequests` requests per server (past it each is refused with an
 * error), `maxTokens` at most per request (a larger ask is lowered), and below the budget a rate
 * limit (a burst of BURST, then `perSecond`) that delays instead of refusing. A person's consent
 * in the session (`[a]lways` included) does not lift the budget. Numbers from readMcpEnv.
 */
import { McpError } from "../../mcp/protocol/errors.ts";

/** Requests a server may send at once before the rate limit delays the next. */
export const BURST = 10;

export interface SamplingLimits {
  maxRequests: number;
  maxTokens: number;
  perSecond: number;
}

/** The JSON-RPC error of a request past the budget: the client refused it, as a user refusal is (-1). */
export const BUDGET_SPENT = -1;

interface ServerState {
  used: number;
  /** Tokens in the rate bucket (negative: requests already waiting for a token). */
  tokens: number;
  at: number;
}

export class SamplingBudget {
  private readonly servers = new Map<string, ServerState>();

  constructor(
    readonly limits: SamplingLimits,
    private readonly log: (line: string) => void,
    private readonly now: () => number = () => performance.now(),
    private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) => delay(ms, signal),
  ) {}

  /**
   * Takes one request of `server`'s budget, waiting for the rate limit when it must.
   * @throws McpError BUDGET_SPENT past the budget (one line the first time); the signal's reason when aborted while waiting.
   */
  async take(server: string, signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const s = this.servers.get(server) ?? { used: 0, tokens: BURST, at: now };
    this.servers.set(server, s);
    if (s.used >= this.limits.maxRequests) {
      if (s.used++ === this.limits.maxRequests) {
        this.log(
          `MCP server "${server}" used its sampling budget (${this.limits.maxRequests} requests this run, MCP_SAMPLING_MAX_REQUESTS): further requests are refused`,
        );
      }
      throw new McpError(BUDGET_SPENT, `Sampling budget spent: at most ${this.limits.maxRequests} requests per server per run`);
    }
    s.used++;
    s.tokens = Math.min(BURST, s.tokens + ((now - s.at) / 1000) * this.limits.perSecond);
    s.at = now;
    s.tokens -= 1;
    if (s.tokens < 0) await this.wait((-s.tokens / this.limits.perSecond) * 1000, signal);
  }

  /** The request's maxTokens (1024 when it gave none or an unusable value), at most the cap. */
  maxTokens(asked: unknown): number {
    const n = typeof asked === "number" && Number.isFinite(asked) && asked > 0 ? Math.floor(asked) : 1024;
    return Math.min(n, this.limits.maxTokens);
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
