import type { ContextItem } from './item.js';

/** A list's key → item and key → position maps, built on first use, for walking the summaries in it. */
export class FoldIndex {
  #maps: { readonly byKey: Map<string, ContextItem>; readonly indexOf: Map<string, number> } | undefined;
  constructor(readonly items: readonly ContextItem[]) {}

  #built(): { readonly byKey: Map<string, ContextItem>; readonly indexOf: Map<string, number> } {
    this.#maps ??= { byKey: new Map(this.items.map((it) => [it.key, it] as const)), indexOf: new Map(this.items.map((it, i) => [it.key, i] as const)) };
    return this.#maps;
  }

  /** The item with this key. */
  get(key: string): ContextItem | undefined {
    return this.#built().byKey.get(key);
  }

  /** The originals (items without `folded`) under `keys`, in list order, descending through every summary among them. */
  originals(keys: Iterable<string>): ContextItem[] {
    const { byKey, indexOf } = this.#built();
    const leaves = new Set<string>();
    const seen = new Set<string>();
    const stack = [...keys];
    for (let k = stack.pop(); k !== undefined; k = stack.pop()) {
      if (seen.has(k)) continue;
      seen.add(k);
      const it = byKey.get(k);
      if (it === undefined) continue;
      if (it.folded === undefined) leaves.add(k);
      else stack.push(...it.folded);
    }
    return [...leaves].map((k) => indexOf.get(k) as number).sort((a, b) => a - b).map((i) => this.items[i] as ContextItem);
  }
}

/**
 * The original items behind a summary, in list order: the items it folded and, through every summary it folded
 * (a fold nests the summaries it absorbs), theirs. Keys that are not in `items` are skipped.
 *
 * @param items - The list that holds the summary and its folded items.
 * @param key - Key of a `summary` item, or of a `summarized` one that was a summary.
 * @returns The originals (items made from nodes or given, never summaries), in list order; empty when `key` folds nothing.
 * @example
 * ```ts
 * const s = result.items.find((it) => it.state === 'summary');
 * if (s) foldedOriginals(result.items, s.key).map((it) => it.sourceNodeId); // the nodes it stands for
 * ```
 */
export function foldedOriginals(items: readonly ContextItem[], key: string): ContextItem[] {
  const index = new FoldIndex(items);
  return index.originals(index.get(key)?.folded ?? []);
}
