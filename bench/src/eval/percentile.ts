/**
 * Nearest-rank percentile of ascending values (0 for none).
 * @example
 * ```ts
 * percentile([1, 2, 3, 4], 50); // 2
 * ```
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}
