import type { ContextItem, ItemState } from '@ctxgit/rules';

/** Items per state. */
export type StateCounts = Readonly<Record<ItemState, number>>;

/** Counts the states of `items`. */
export function countStates(items: readonly ContextItem[]): StateCounts {
  const c = { full: 0, aged: 0, cleared: 0, summarized: 0, summary: 0 };
  for (const it of items) c[it.state]++;
  return c;
}

/** `base` (the counts of `before`) carried to `items`: `changed` positions replaced, everything from `before.length` appended. */
export function carryStates(base: StateCounts, before: readonly ContextItem[], items: readonly ContextItem[], changed: readonly number[]): StateCounts {
  const c = { ...base };
  for (const i of changed) {
    c[(before[i] as ContextItem).state]--;
    c[(items[i] as ContextItem).state]++;
  }
  for (let i = before.length; i < items.length; i++) c[(items[i] as ContextItem).state]++;
  return c;
}
