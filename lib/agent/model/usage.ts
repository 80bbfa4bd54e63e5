/**
 * The run's token usage and cost: every Messages API call (turns, compaction, servers' sampling)
 * is recorded here with the model that answered it, and priced from model-table.ts.
 */
import type { Usage } from "../messages.ts";
import { modelFacts } from "./model-table.ts";

/** Usage with all four counters present (Messages API `usage`, summed). */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export const zeroUsage = (): UsageTotals => ({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

/** One reply's usage with absent or null counters read as 0. */
export function normalizeUsage(u: Usage | undefined | null): UsageTotals {
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
  return {
    input_tokens: n(u?.input_tokens),
    output_tokens: n(u?.output_tokens),
    cache_creation_input_tokens: n(u?.cache_creation_input_tokens),
    cache_read_input_tokens: n(u?.cache_read_input_tokens),
  };
}

/** The whole prompt of one request, in tokens: uncached input plus cache writes plus cache reads. */
/** `a` less `b`, field by field: a turn's own usage, or a run's without its subagents'. */
export const usageMinus = (a: UsageTotals, b: UsageTotals): UsageTotals => ({
  input_tokens: a.input_tokens - b.input_tokens,
  output_tokens: a.output_tokens - b.output_tokens,
  cache_creation_input_tokens: a.cache_creation_input_tokens - b.cache_creation_input_tokens,
  cache_read_input_tokens: a.cache_read_input_tokens - b.cache_read_input_tokens,
});

export const promptTokens = (u: UsageTotals): number => u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;

/**
 * USD for `usage` on `model` (prices per million tokens, cache writes and reads at their own
 * rates), or null when the model is not in the price table.
 */
export function costUsd(model: string, usage: UsageTotals): number | null {
  const p = modelFacts(model);
  if (!p) return null;
  const micro =
    usage.input_tokens * p.input +
    usage.output_tokens * p.output +
    usage.cache_creation_input_tokens * p.cacheWrite +
    usage.cache_read_input_tokens * p.cacheRead;
  return micro / 1_000_000;
}

/** USD per web search (Anthropic's price: $10 per 1,000 searches, as read on 2026-12-01). */
export const WEB_SEARCH_USD = 0.01;

export class UsageMeter {
  private readonly sum = zeroUsage();
  /** `usage.server_tool_use.web_search_requests`, summed over the run. */
  webSearches = 0;
  private cost: number | null = 0;
  /** The usage of the last reply that carried any, with its model; undefined before one has. */
  private latest: { model: string; usage: UsageTotals } | undefined;

  /** Records one reply's `usage` (which may be missing: a proxy that sends none). */
  record(model: string, usage: Usage | undefined | null): void {
    if (!usage) return;
    const u = normalizeUsage(usage);
    for (const k of Object.keys(this.sum) as (keyof UsageTotals)[]) this.sum[k] += u[k];
    // Web searches the API ran for us (WebSearch's server tool) are billed per search, whatever the model.
    const searches = (usage as { server_tool_use?: { web_search_requests?: unknown } }).server_tool_use?.web_search_requests;
    const searched = typeof searches === "number" && Number.isFinite(searches) && searches > 0 ? searches : 0;
    this.webSearches += searched;
    const tokens = costUsd(model, u);
    const c = tokens === null ? null : tokens + searched * WEB_SEARCH_USD;
    // One unpriced call makes the total unknown: a partial sum would look like a real figure.
    this.cost = this.cost === null || c === null ? null : this.cost + c;
    this.latest = { model, usage: u };
  }

  /** The four counters summed over the run. */
  total(): UsageTotals {
    return { ...this.sum };
  }

  /** USD over the run, or null when any call's model has no price. */
  totalCostUsd(): number | null {
    return this.cost;
  }

  /** The last reply's usage, or undefined when none carried usage. */
  last(): { model: string; usage: UsageTotals } | undefined {
    return this.latest;
  }
}

/**
 * What a streamed reply has been billed so far (Messages API streaming): `message_start` carries
 * the input side, each `message_delta` the cumulative output (and, from some endpoints, updated
 * input counters). Read when a stream ends early, so an interrupted call is still counted.
 */
export class StreamedUsage {
  private current: Usage | undefined;

  /** Takes one raw stream event; others than message_start and message_delta are ignored. */
  observe(event: { type: string; message?: { usage?: Usage }; usage?: Partial<Usage> | null }): void {
    if (event.type === "message_start") this.current = { ...event.message?.usage } as Usage;
    else if (event.type === "message_delta" && event.usage && this.current) {
      const numbers = Object.entries(event.usage).filter(([, v]) => typeof v === "number");
      this.current = { ...this.current, ...Object.fromEntries(numbers) };
    }
  }

  /** The usage seen, or undefined before message_start. */
  get usage(): Usage | undefined {
    return this.current;
  }
}

/** One line: `cost $0.0123 · input 1200 · output 300 · cache write 800 · cache read 4000 tokens`. */
export function describeUsage(meter: UsageMeter): string {
  const t = meter.total();
  const cost = meter.totalCostUsd();
  const money = cost === null ? "cost unknown (model not in the price table)" : `cost $${cost.toFixed(4)}`;
  return `${money} · input ${t.input_tokens} · output ${t.output_tokens} · cache write ${t.cache_creation_input_tokens} · cache read ${t.cache_read_input_tokens} tokens`;
}
