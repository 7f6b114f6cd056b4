import type { ContextItem } from './item.js';

/**
 * An item as a fold leaves it: `summarized` into the summary `summaryKey`, reason `folded`, everything else as it
 * was. The fold rule makes its folded items with it, and a store that keeps a folded item as it was live (as
 * `@ctxgit/commit` does) reads it back through it, so both agree on what a folded item is.
 *
 * @param item - The item folded (any state but `summarized`).
 * @param summaryKey - Key of the summary that folds it.
 * @returns A new item; `item` is not changed.
 * @example
 * ```ts
 * const folded = foldInto(item, 'sm_0123456789abcdef');
 * folded.state; // 'summarized'
 * folded.mergedInto; // 'sm_0123456789abcdef'
 * ```
 */
export function foldInto(item: ContextItem, summaryKey: string): ContextItem {
  return { ...item, state: 'summarized', reason: 'folded', mergedInto: summaryKey };
}
