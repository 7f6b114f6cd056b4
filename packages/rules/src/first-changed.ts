import { deepEqual } from './deep-equal.js';
import type { ContextItem } from './item.js';
import type { Changes } from './list-lineage.js';

/** Index of the first item of `items` that differs from `parent`; `changes`: where they may differ, when known. */
export function firstChanged(parent: readonly ContextItem[], items: readonly ContextItem[], changes?: Changes): number {
  const n = Math.min(parent.length, items.length);
  if (changes !== undefined) {
    for (const i of changes.changed) if (i < n && !deepEqual(parent[i], items[i])) return i;
    return n;
  }
  for (let i = 0; i < n; i++) if (parent[i] !== items[i] && !deepEqual(parent[i], items[i])) return i;
  return n;
}
