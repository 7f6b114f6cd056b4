/**
 * What the rules keep between pipeline runs, owned by whoever runs them: a session makes one and hands it to every
 * run (`context.cache` of {@link runPipeline}), so that a run on a list derived from the previous run's result costs
 * what changed since, not the length of the list — much as a query cache belongs to its query client. The cache
 * remembers lists by identity and weakly (a list nobody holds any more is forgotten); it never changes a result, only
 * what computing it costs. A run without one works on a fresh cache of its own.
 *
 * @example
 * ```ts
 * const cache = new RulesCache();
 * let items: readonly ContextItem[] = [];
 * for (const turn of turns) items = runPipeline(items, turn, { now: clock(), tokenizer, historyBudget: 16_000, cache }).items;
 * ```
 */
export class RulesCache {
  readonly #parts = new Map<(cache: RulesCache) => unknown, unknown>();

  /**
   * The part of this cache that `make` creates: made on first use, then the same object. The rules' helpers keep
   * their memos in parts (one per helper, `make` being the helper's own constructor function).
   *
   * @param make - Creates the part; its identity names the part.
   * @returns The part.
   * @example
   * ```ts
   * function newSeen(): WeakSet<object> { return new WeakSet(); }
   * cache.part(newSeen) === cache.part(newSeen); // true: one part per function
   * ```
   * @internal
   */
  part<T>(make: (cache: RulesCache) => T): T {
    let p = this.#parts.get(make) as T | undefined;
    if (p === undefined) {
      p = make(this);
      this.#parts.set(make, p);
    }
    return p;
  }
}
