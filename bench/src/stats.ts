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
