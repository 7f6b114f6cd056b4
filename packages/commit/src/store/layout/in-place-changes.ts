import type { ContextItem } from '@ctxgit/rules';

/**
 * Positions below `base.length` where `items` holds another object than `base`, when `items` keeps every key of
 * `base` at its position (and may append); undefined when a key moved, vanished or was inserted (a fold).
 */
export function inPlaceChanges(base: readonly ContextItem[], items: readonly ContextItem[]): number[] | undefined {
  if (items.length < base.length) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < base.length; i++) {
    const b = base[i] as ContextItem;
    const it = items[i] as ContextItem;
    if (b === it) continue;
    if (b.key !== it.key) return undefined;
    changed.push(i);
  }
  return changed;
}
