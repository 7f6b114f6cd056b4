import { RulesFoldedNeededError } from './errors.js';
import type { ContextItem } from './item.js';

/** The items a summary folded, in order, when they are not in the list at hand (they live under it). */
export type FoldedLookup = (summaryKey: string) => readonly ContextItem[] | undefined;

/**
 * A list's key → item map, built on first use, for walking the summaries in it: a summary's folded items are found
 * in the list (a fold of this run) or, for a summary of the parent list, through the lookup.
 */
export class FoldIndex {
  #byKey: Map<string, ContextItem> | undefined;
  constructor(
    readonly items: readonly ContextItem[],
    readonly lookup: FoldedLookup | undefined = undefined,
  ) {}

  /** The item with this key in the list. */
  get(key: string): ContextItem | undefined {
    this.#byKey ??= new Map(this.items.map((it) => [it.key, it] as const));
    return this.#byKey.get(key);
  }

  /** The items the summary `s` folded, in order, when the list or the lookup has them. */
  #found(s: ContextItem): readonly ContextItem[] | undefined {
    const keys = s.folded ?? [];
    const here = keys.map((k) => this.get(k));
    if (here.every((it) => it !== undefined && it.mergedInto === s.key)) return here as ContextItem[];
    return this.lookup?.(s.key);
  }

  /** The items the summary `s` folded, in order; {@link RulesFoldedNeededError} when neither the list nor the lookup has them. */
  children(s: ContextItem): readonly ContextItem[] {
    const under = this.#found(s);
    if (under === undefined) throw new RulesFoldedNeededError([s.key]);
    return under;
  }

  /** The originals under the summary `s`, in order. */
  originalsOf(s: ContextItem): ContextItem[] {
    return this.children(s).flatMap((c) => (c.folded === undefined ? [c] : this.originalsOf(c)));
  }
}

/**
 * The original items behind a summary, in order: the items it folded and, through every summary it folded
 * (a fold nests the summaries it absorbs), theirs. Keys that are not found are skipped.
 *
 * @param items - The list that holds the summary (a live list, or a rule's list holding its folds).
 * @param key - Key of a summary item in `items`.
 * @param folds - The items each summary folded, when they are not in `items` (a pipeline result's `folds`, or
 * what the caller stored). @defaultValue none: folded items are looked up in `items` only
 * @returns The originals (items made from nodes or given, never summaries), in order; empty when `key` folds nothing.
 * @throws RulesFoldedNeededError when a summary's folded items are neither in `items` nor in `folds`.
 * @example
 * ```ts
 * const r = runPipeline(parent, nodes, ctx);
 * const s = r.items.find((it) => it.state === 'summary');
 * if (s) foldedOriginals(r.items, s.key, (k) => r.folds.get(k)).map((it) => it.sourceNodeId); // the nodes it stands for
 * ```
 */
export function foldedOriginals(items: readonly ContextItem[], key: string, folds?: FoldedLookup): ContextItem[] {
  const index = new FoldIndex(items, folds);
  const s = index.get(key);
  return s?.folded === undefined ? [] : index.originalsOf(s);
}
