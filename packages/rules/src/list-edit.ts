import type { ContextItem } from './item.js';
import { recordEdit } from './list-lineage.js';
import type { RulesCache } from './rules-cache.js';

/**
 * A copy-on-write edit of a rule's list: items replaced in place by items of the same key. The list is copied on the
 * first replacement only, and the result is recorded in the cache as an edit of the list at the replaced positions,
 * so what later runs derive from it (totals, protection, the next run's visits) costs what changed.
 */
export class ListEdit {
  #out: ContextItem[] | undefined;
  readonly #changed = new Set<number>();

  constructor(
    private readonly items: readonly ContextItem[],
    private readonly cache: RulesCache,
  ) {}

  /** The item at `i` as edited so far. */
  at(i: number): ContextItem {
    return (this.#out ?? this.items)[i] as ContextItem;
  }

  /** Whether the item at `i` was replaced. */
  replaced(i: number): boolean {
    return this.#changed.has(i);
  }

  /** Replaces the item at `i` by `item` (of the same key). */
  set(i: number, item: ContextItem): void {
    (this.#out ??= this.items.slice())[i] = item;
    this.#changed.add(i);
  }

  /** The edited list, recorded as an edit of the original; the original itself when nothing was replaced. */
  done(): readonly ContextItem[] {
    if (this.#out === undefined) return this.items;
    recordEdit(this.cache, this.#out, this.items, [...this.#changed].sort((a, b) => a - b));
    return this.#out;
  }
}
