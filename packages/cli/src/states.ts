import type { ContextItem, ItemState } from '@ctxgit/rules';

/** Item counts by state. */
export type StateCounts = { readonly [S in ItemState]: number };

/** The item states in the order they tighten, summaries last. */
export const STATES: readonly ItemState[] = ['full', 'aged', 'cleared', 'summarized', 'summary'];

/** Counts the items of a commit by state: its live items, and the `folded` ones under its summaries as `summarized`. */
export function stateCounts(items: readonly ContextItem[], folded = 0): StateCounts {
  const c = { full: 0, aged: 0, cleared: 0, summarized: folded, summary: 0 };
  for (const item of items) c[item.state] += 1;
  return c;
}

/** `12 full, 3 aged, …` leaving out zero counts (`0 items` when empty). */
export function statesText(c: StateCounts): string {
  const parts = STATES.filter((s) => c[s] > 0).map((s) => `${c[s]} ${s}`);
  return parts.length === 0 ? '0 items' : parts.join(', ');
}
