import type { ContextItem } from '@ctxgit/rules';

/**
 * Key of the last `user` item, or `undefined` when there is none.
 * @example
 * ```ts
 * latestUserKey([system, user1, assistant, user2]); // user2.key
 * ```
 */
export function latestUserKey(items: readonly ContextItem[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as ContextItem;
    if (item.role === 'user') return item.key;
  }
  return undefined;
}
