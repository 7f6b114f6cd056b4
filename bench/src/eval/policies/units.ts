import type { ContextItem } from '@ctxgit/rules';

/**
 * Groups items into units that must be kept or dropped together: an assistant item with the tool items it
 * issued (by `caller`, or the tool items right after it when `caller` is absent); every other item alone.
 * @example
 * ```ts
 * toolUnits([system, user, assistant, toolA, toolB]).map((u) => u.length); // [1, 1, 3]
 * ```
 */
export function toolUnits(items: readonly ContextItem[]): ContextItem[][] {
  const units: ContextItem[][] = [];
  let open: { key: string; unit: ContextItem[] } | null = null;
  for (const item of items) {
    if (item.role === 'tool' && open !== null && (item.caller === undefined || item.caller === open.key)) {
      open.unit.push(item);
      continue;
    }
    const unit = [item];
    units.push(unit);
    open = item.role === 'assistant' ? { key: item.key, unit } : null;
  }
  return units;
}
