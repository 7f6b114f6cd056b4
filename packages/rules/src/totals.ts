import type { ContextItem } from './item.js';

/** Sum of tokens of visible items, and of visible non-system items. */
export function totals(items: readonly ContextItem[]): { total: number; history: number } {
  let total = 0;
  let history = 0;
  for (const it of items) {
    if (it.state === 'summarized') continue;
    total += it.tokens;
    if (it.role !== 'system') history += it.tokens;
  }
  return { total, history };
}
