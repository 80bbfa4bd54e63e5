/**
 * What the agent knows about each model: its context window (tokens) and its prices (USD per
 * million tokens). Source: Anthropic's pricing page and model overviews (platform.claude.com,
 * "Pricing" and "Models overview"), as read on 2026-12-01. Cache writes are the 5-minute
 * ephemeral rate (1.25 × input), cache reads the "cache hits" rate, both as the API bills them.
 * A model id not in this table has no window and no price: callers then skip tool search and
 * automatic compaction and report a null cost, never a guess.
 */

export interface ModelFacts {
  /** Context window, in tokens. */
  contextWindow: number;
  /** USD per million tokens. */
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

const K = 1000;
const M = 1000 * K;
const row = (contextWindow: number, input: number, output: number, cacheWrite: number, cacheRead: number): ModelFacts => ({
  contextWindow,
  input,
  output,
  cacheWrite,
  cacheRead,
});

const TABLE: Record<string, ModelFacts> = {
  "claude-fable-5-1": row(1 * M, 10, 50, 12.5, 0.25),
  "claude-fable-5": row(1 * M, 10, 50, 12.5, 1),
  "claude-opus-5-5": row(1 * M, 4, 20, 5, 0.2),
  "claude-opus-5": row(1 * M, 5, 25, 6.25, 0.5),
  "claude-opus-4-8": row(1 * M, 5, 25, 6.25, 0.5),
  "claude-opus-4-7": row(1 * M, 5, 25, 6.25, 0.5),
  "claude-opus-4-6": row(1 * M, 5, 25, 6.25, 0.5),
  "claude-opus-4-5": row(200 * K, 5, 25, 6.25, 0.5),
  "claude-opus-4-1": row(200 * K, 15, 75, 18.75, 1.5),
  "claude-opus-4": row(200 * K, 15, 75, 18.75, 1.5),
  "claude-sonnet-5-5": row(1 * M, 2, 10, 2.5, 0.1),
  "claude-sonnet-5": row(1 * M, 2, 10, 2.5, 0.2),
  "claude-sonnet-4-6": row(1 * M, 3, 15, 3.75, 0.3),
  "claude-sonnet-4-5": row(200 * K, 3, 15, 3.75, 0.3),
  "claude-sonnet-4": row(200 * K, 3, 15, 3.75, 0.3),
  "claude-haiku-4-5": row(200 * K, 1, 5, 1.25, 0.1),
  "claude-3-5-haiku": row(200 * K, 0.8, 4, 1, 0.08),
};

/**
 * The facts for a model id, or undefined when it is not in the table. A dated id
 * (`claude-sonnet-4-5-20250929`) and the `-0` spelling (`claude-opus-4-0`) name their family's row;
 * `-latest` is accepted too. Anything else (a proxy's own names) is unknown.
 */
export function modelFacts(model: string): ModelFacts | undefined {
  const key = model
    .trim()
    .toLowerCase()
    .replace(/-(\d{8}|latest)$/, "")
    .replace(/-0$/, "");
  return Object.hasOwn(TABLE, key) ? TABLE[key] : undefined;
}

/** The model's context window in tokens, or undefined for a model not in the table. */
export function contextWindow(model: string): number | undefined {
  return modelFacts(model)?.contextWindow;
}

/**
 * The model id a family alias (`opus`, `sonnet`, `haiku`, `fable`, any case) stands for: the newest
 * row of that family in the table above (rows are newest first), or undefined for anything else.
 */
export function modelForAlias(alias: string): string | undefined {
  const family = alias.trim().toLowerCase();
  if (!/^[a-z]+$/.test(family)) return undefined;
  return Object.keys(TABLE).find((id) => id.startsWith(`claude-${family}-`));
}
