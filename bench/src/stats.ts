import { percentile } from './eval/percentile.js';

/** Sorted copy, ascending. */
const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);

/**
 * Median of the values (mean of the two middle ones for an even count; 0 for none).
 * @example
 * ```ts
 * median([3, 1, 2, 10]); // 2.5
 * ```
 */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/**
 * 95th percentile, nearest rank (0 for none).
 * @example
 * ```ts
 * p95(Array.from({ length: 20 }, (_, i) => i + 1)); // 19
 * ```
 */
export function p95(xs: readonly number[]): number {
  return percentile(sorted(xs), 95);
}

/**
 * 99th percentile, nearest rank (0 for none).
 * @example
 * ```ts
 * p99(Array.from({ length: 200 }, (_, i) => i + 1)); // 198
 * ```
 */
export function p99(xs: readonly number[]): number {
  return percentile(sorted(xs), 99);
}

/**
 * Of several runs of one measurement, the run whose `figure` is the median (the upper middle for an even count), with
 * every run's figure, ascending: a row of figures that all come from one run, and the spread beside it.
 * @example
 * ```ts
 * medianRun([{ ms: 3 }, { ms: 1 }, { ms: 2 }], (r) => r.ms); // { run: { ms: 2 }, figures: [1, 2, 3] }
 * ```
 */
export function medianRun<T>(runs: readonly T[], figure: (run: T) => number): { readonly run: T; readonly figures: number[] } {
  if (runs.length === 0) throw new Error('medianRun: no runs');
  const byFigure = [...runs].sort((a, b) => figure(a) - figure(b));
  return { run: byFigure[byFigure.length >> 1] as T, figures: byFigure.map(figure) };
}
