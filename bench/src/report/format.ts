/**
 * Formats a figure for a table: thousands separators for large numbers, 3 significant digits otherwise.
 * @example
 * ```ts
 * formatNumber(12345.6); // '12,346'
 * formatNumber(0.012345); // '0.0123'
 * ```
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) || Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  if (n === 0) return '0';
  return Number(n.toPrecision(3)).toString();
}

/**
 * Formats a share in [0, 1] as a percentage with one decimal.
 * @example
 * ```ts
 * formatPercent(0.5); // '50.0 %'
 * ```
 */
export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/**
 * Formats a ratio with two decimals.
 * @example
 * ```ts
 * formatRatio(0.4219); // '0.42x'
 * ```
 */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

/**
 * Formats a budget in tokens, in thousands when round.
 * @example
 * ```ts
 * formatBudget(4000); // '4k'
 * ```
 */
export function formatBudget(tokens: number): string {
  return tokens % 1000 === 0 ? `${tokens / 1000}k` : String(tokens);
}
