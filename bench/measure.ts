/**
 * Statistics and the result row every figure produces. Pure: no processes, no clocks read here
 * except through the callbacks given to `series`.
 */

/** The median of `values` (mean of the middle two for an even count). @throws Error when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs each named measurement `warmup` times (discarded), then `runs` times, interleaved
 * (a, b, a, b…) so drift of the machine affects both sides alike. Each callback returns one
 * sample (any unit). Resolves with the samples per name, in run order.
 */
export async function series<K extends string>(runs: number, measures: Record<K, () => Promise<number>>, warmup = 1): Promise<Record<K, number[]>> {
  const names = Object.keys(measures) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < warmup + runs; i++) {
    for (const name of names) {
      const value = await measures[name]();
      if (i >= warmup) samples[name].push(value);
    }
  }
  return samples;
}

/**
 * Wraps a measurement so a failure costs only its own row: the first error is kept in
 * `failures[name]` and the sample is NaN (see `medianOrFailure`).
 */
export function guarded(name: string, failures: Record<string, string>, measure: () => Promise<number>): () => Promise<number> {
  return async () => {
    if (failures[name]) return NaN;
    try {
      return await measure();
    } catch (error) {
      failures[name] = oneLine(error);
      return NaN;
    }
  };
}

/** The median of samples from `guarded`, or the failure that stopped them. */
export function medianOrFailure(samples: number[] | undefined, failure: string | undefined): { value: number } | { failure: string } {
  if (failure) return { failure };
  if (!samples?.length || samples.some(Number.isNaN)) return { failure: "no samples" };
  return { value: median(samples) };
}

/** One line of the results table. `value`/`baseline` are already formatted (e.g. "12.3 ms"). */
export interface Row {
  figure: string;
  value: string;
  baseline: string;
  /** value ÷ baseline, formatted, or "—" when there is no baseline. */
  ratio: string;
  target: string;
  /** "met", "missed", "reported" (no target) or "n/a (reason)". */
  result: string;
}

/** A row for a figure that could not be measured in this run. */
export function naRow(figure: string, target: string, reason: string): Row {
  return { figure, value: "n/a", baseline: "n/a", ratio: "—", target, result: `n/a (${oneLine(reason)})` };
}

/** "12.3 ms" for durations in ms: one decimal under 100 ms, none above. */
export function ms(value: number): string {
  return `${value < 100 ? value.toFixed(1) : Math.round(value)} ms`;
}

/** "+12.3 ms" or "−4.0 ms": a difference of durations in ms, always signed. */
export function msDelta(value: number): string {
  return `${value < 0 ? "−" : "+"}${ms(Math.abs(value))}`;
}

/** "1.23×" */
export function ratio(value: number, baseline: number): string {
  return `${(value / baseline).toFixed(2)}×`;
}

/** "12 345/s" for rates in operations per second. */
export function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString("en-US").replace(/,/g, " ")}/s`;
}

/** "45.6 MB" for sizes in bytes (MB = 2^20 bytes, as `ps` and /proc report kB = 2^10). */
export function megabytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

export const verdict = (ok: boolean): string => (ok ? "met" : "missed");

/** The first line of an error's message, for a table cell. */
export function oneLine(reason: unknown): string {
  const text = reason instanceof Error ? reason.message : String(reason);
  return (text.split("\n").find((l) => l.trim()) ?? "unknown error").trim().replace(/\|/g, "\\|").slice(0, 160);
}
