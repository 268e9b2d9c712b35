/** What the benchmark asks of a route, and how it summarizes the latencies it measured. */

export interface RouteRequest {
  method: 'GET' | 'POST';
  /** With `{name}` for the entity's name. */
  path: string;
  /** JSON, with `{name}` for the entity's name. */
  body?: string;
}

export interface LatencySummary {
  samples: number;
  errors: number;
  firstError?: string;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
  /** What each answer carried on the wire, headers included, on average (wrk's count). */
  bytesPerAnswer?: number;
}

/** The value at quantile `q` of values sorted ascending (NaN for none). */
const atQuantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** The value at quantile `q` (0.5 the median, 0.99 the p99), as `summarize` reads them. */
export function percentile(values: number[], q: number): number {
  return atQuantile(
    [...values].sort((a, b) => a - b),
    q,
  );
}

export function summarize(
  latencies: number[],
  errors: number,
  seconds: number,
  firstError?: string,
): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => atQuantile(sorted, q);
  return {
    samples: sorted.length,
    errors,
    firstError,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? NaN,
    perSecond: sorted.length / seconds,
  };
}
