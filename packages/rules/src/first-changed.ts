import { deepEqual } from './deep-equal.js';
import type { ContextItem } from './item.js';

/** Index of the first item of `items` that differs from `parent`. */
export function firstChanged(parent: readonly ContextItem[], items: readonly ContextItem[]): number {
  const n = Math.min(parent.length, items.length);
  for (let i = 0; i < n; i++) if (parent[i] !== items[i] && !deepEqual(parent[i], items[i])) return i;
  return n;
}
