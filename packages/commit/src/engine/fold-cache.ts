import type { ContextItem } from '@ctxgit/rules';

/** What one fold tree holds: the items its summary folded, and the fold trees of the summaries among them (key → oid). */
export interface CachedFold {
  readonly items: readonly ContextItem[];
  readonly trees: ReadonlyMap<string, string>;
}

/** Items kept under one live summary: as many as a fold's brief opens (the fold rule's `BRIEF_SOURCES`). */
const KEPT_UNDER = 256;

/**
 * What the live summaries of a session's latest commit folded, by fold-tree oid, as the session's own commits made
 * them: a fold that absorbs one of those summaries (a merge of summaries) reads its items here instead of from the
 * packs, and the rules run once instead of again after the read. Holds, under each live summary, the trees a brief
 * may open (the newest nested summaries first, up to {@link KEPT_UNDER} items); a cold session reads them from storage
 * as before. A tree oid names its content, so an entry is never stale. Belongs to one session object.
 */
export class FoldCache {
  #entries = new Map<string, CachedFold>();
  /** The live summaries of the last {@link FoldCache.retain}: a commit that folds nothing keeps its base's map. */
  #live: ReadonlyMap<string, string> | undefined;

  /** The items of the fold tree `tree`, when held. */
  get(tree: string): CachedFold | undefined {
    return this.#entries.get(tree);
  }

  /**
   * After a commit: holds the trees of its live summaries (`live`: key → tree oid) and, under each, the trees of the
   * summaries nested in it, the newest first, while at most {@link KEPT_UNDER} items are held for it; from `made` (the
   * trees the commit wrote) or what was held. Drops the rest; a commit with the live summaries of the last call and no
   * new tree changes nothing.
   */
  retain(live: ReadonlyMap<string, string>, made: ReadonlyMap<string, CachedFold>): void {
    // the same live summaries and nothing new: what they reach is what is held
    if (made.size === 0 && live === this.#live) return;
    this.#live = live;
    const next = new Map<string, CachedFold>();
    const keep = (tree: string, left: number): number => {
      const e = made.get(tree) ?? this.#entries.get(tree);
      if (e === undefined || e.items.length > left) return left;
      next.set(tree, e);
      let rest = left - e.items.length;
      for (const under of [...e.trees.values()].reverse()) rest = keep(under, rest);
      return rest;
    };
    for (const tree of live.values()) keep(tree, KEPT_UNDER);
    this.#entries = next;
  }
}
