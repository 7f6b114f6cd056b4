import type { ContextItem } from './item.js';
import { changesSince, editedFrom } from './list-lineage.js';
import type { RulesCache } from './rules-cache.js';

/** Keys added along one line of lists, each with its rank; only ever added to. */
interface SharedKeys {
  readonly rank: Map<string, number>;
  size: number;
}

/** The keys of one list: the shared keys of rank below `limit`. */
interface KeyView {
  readonly shared: SharedKeys;
  readonly limit: number;
}

const MAX_DEPTH = 16;

/** The key views of a cache, per list. */
function newKeyViews(): WeakMap<readonly ContextItem[], KeyView> {
  return new WeakMap();
}

function build(list: readonly ContextItem[]): KeyView {
  const shared: SharedKeys = { rank: new Map(), size: 0 };
  for (const it of list) shared.rank.set(it.key, shared.size++);
  return { shared, limit: shared.size };
}

/** The view of `list` from the view of `from`, when `list` only appended to it (else undefined). */
function extend(cache: RulesCache, view: KeyView, from: readonly ContextItem[], list: readonly ContextItem[]): KeyView | undefined {
  const c = changesSince(cache, list, from);
  if (c === undefined) return undefined;
  if (list.length === from.length) return view;
  const { shared } = view;
  // Another list already extended the shared keys past this one's: it needs keys of its own.
  if (view.limit !== shared.size) return undefined;
  for (let i = c.appendedFrom; i < list.length; i++) {
    const key = (list[i] as ContextItem).key;
    if (shared.rank.has(key)) {
      // A key of an abandoned branch, or a duplicate: the caller's check must see only this list's keys.
      return undefined;
    }
    shared.rank.set(key, shared.size++);
  }
  return { shared, limit: shared.size };
}

/** The view of `list`: extended from the view of the list it was edited from (looked up to `depth` edits back), else built. */
function viewOf(cache: RulesCache, list: readonly ContextItem[], depth: number): KeyView {
  const views = cache.part(newKeyViews);
  let view = views.get(list);
  if (view !== undefined) return view;
  const from = editedFrom(cache, list);
  const base = from === undefined || depth === 0 ? undefined : viewOf(cache, from, depth - 1);
  view = (base !== undefined && from !== undefined ? extend(cache, base, from, list) : undefined) ?? build(list);
  views.set(list, view);
  return view;
}

/**
 * Whether `key` is the key of an item of `list`. The key set is shared along lists derived by edits recorded in
 * `cache` (same keys, items appended), so a lookup costs what was appended since the last one, not the list's length.
 */
export function hasKey(cache: RulesCache, list: readonly ContextItem[], key: string): boolean {
  const view = viewOf(cache, list, MAX_DEPTH);
  const r = view.shared.rank.get(key);
  return r !== undefined && r < view.limit;
}
