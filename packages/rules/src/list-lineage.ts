import type { ContextItem } from './item.js';
import type { RulesCache } from './rules-cache.js';

/** How a list was made from another: the items at `changed` (ascending) replaced by items of the same keys, then items appended after `from.length`. */
interface Edit {
  readonly from: readonly ContextItem[];
  readonly changed: readonly number[];
}

/** Where a list may differ from an earlier list it was derived from. */
export interface Changes {
  /** Positions below `appendedFrom` whose item may differ, ascending. */
  readonly changed: readonly number[];
  /** Every position from here on is new (the earlier list's length). */
  readonly appendedFrom: number;
}

/** The recorded edits of a cache: each list, the list it was derived from. */
function newLineage(): WeakMap<readonly ContextItem[], Edit> {
  return new WeakMap();
}

const NONE: readonly number[] = [];

/**
 * Records in `cache` that `list` is `from` with the items at `changed` (ascending) replaced by items of the same keys,
 * plus the items appended after `from.length`; lets later readers skip the unchanged positions.
 */
export function recordEdit(cache: RulesCache, list: readonly ContextItem[], from: readonly ContextItem[], changed: readonly number[] = NONE): void {
  if (list !== from) cache.part(newLineage).set(list, { from, changed });
}

/**
 * Where `list` may differ from `ancestor`, when `list` was derived from it by at most `maxSteps` edits recorded in
 * `cache`; undefined when it was not (then every position must be compared).
 */
export function changesSince(cache: RulesCache, list: readonly ContextItem[], ancestor: readonly ContextItem[], maxSteps = 16): Changes | undefined {
  const edits = cache.part(newLineage);
  const appendedFrom = ancestor.length;
  let changed: number[] | undefined;
  let cur = list;
  for (let steps = 0; cur !== ancestor; steps++) {
    const e = edits.get(cur);
    if (e === undefined || steps >= maxSteps) return undefined;
    for (const i of e.changed) if (i < appendedFrom) (changed ??= []).push(i);
    cur = e.from;
  }
  if (changed === undefined) return { changed: NONE, appendedFrom };
  changed.sort((a, b) => a - b);
  return { changed: changed.filter((x, k) => k === 0 || changed[k - 1] !== x), appendedFrom };
}

/** The list `list` was recorded in `cache` as an edit of, if any. */
export function editedFrom(cache: RulesCache, list: readonly ContextItem[]): readonly ContextItem[] | undefined {
  return cache.part(newLineage).get(list)?.from;
}
