import type { ContextItem } from './item.js';

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

const edits = new WeakMap<readonly ContextItem[], Edit>();
const NONE: readonly number[] = [];

/**
 * Records that `list` is `from` with the items at `changed` (ascending) replaced by items of the same keys, plus
 * the items appended after `from.length`; lets later readers skip the unchanged positions.
 */
export function recordEdit(list: readonly ContextItem[], from: readonly ContextItem[], changed: readonly number[] = NONE): void {
  if (list !== from) edits.set(list, { from, changed });
}

/**
 * Where `list` may differ from `ancestor`, when `list` was derived from it by at most `maxSteps` recorded edits;
 * undefined when it was not (then every position must be compared).
 */
export function changesSince(list: readonly ContextItem[], ancestor: readonly ContextItem[], maxSteps = 16): Changes | undefined {
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

/** The list `list` was recorded as an edit of, if any. */
export function editedFrom(list: readonly ContextItem[]): readonly ContextItem[] | undefined {
  return edits.get(list)?.from;
}

/** {@link changesSince} the nearest ancestor of `list` (itself included) that is in `seen`; undefined when none is within `maxSteps` edits. */
export function changesSinceSeen(list: readonly ContextItem[], seen: WeakSet<readonly ContextItem[]>, maxSteps = 16): Changes | undefined {
  let cur: readonly ContextItem[] | undefined = list;
  for (let steps = 0; cur !== undefined && steps <= maxSteps; steps++) {
    if (seen.has(cur)) return changesSince(list, cur, maxSteps);
    cur = edits.get(cur)?.from;
  }
  return undefined;
}

/** Calls `f` with every position of `list` that `changes` names (every position when undefined), ascending. */
export function forEachChanged(list: readonly ContextItem[], changes: Changes | undefined, f: (it: ContextItem, i: number) => void): void {
  if (changes === undefined) {
    for (let i = 0; i < list.length; i++) f(list[i] as ContextItem, i);
    return;
  }
  for (const i of changes.changed) f(list[i] as ContextItem, i);
  for (let i = changes.appendedFrom; i < list.length; i++) f(list[i] as ContextItem, i);
}
