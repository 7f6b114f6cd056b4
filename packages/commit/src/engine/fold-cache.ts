import type { ContextItem } from '@ctxgit/rules';

/** What one fold tree holds: the items its summary folded, and the fold trees of the summaries among them (key → oid). */
export interface CachedFold {
  readonly items: readonly ContextItem[];
  readonly trees: ReadonlyMap<string, string>;
}

/**
 * What the live summaries of a session's latest commit folded, by fold-tree oid, as the session's own commits made
 * them: a fold that absorbs one of those summaries (a merge of summaries) reads its items here instead of from the
 * packs, and the rules run once instead of again after the read. Holds the trees of the live summaries and of the
 * summaries directly under them; a cold session reads them from storage as before. A tree oid names its content, so an
 * entry is never stale. Belongs to one session object.
 */
export class FoldCache {
  #entries = new Map<string, CachedFold>();

  /** The items of the fold tree `tree`, when held. */
  get(tree: string): CachedFold | undefined {
    return this.#entries.get(tree);
  }

  /**
   * After a commit: holds the trees of its live summaries (`live`: key → tree oid) and of the summaries directly under
   * them, from `made` (the trees the commit wrote) or what was held; drops the rest.
   */
  retain(live: ReadonlyMap<string, string>, made: ReadonlyMap<string, CachedFold>): void {
    const next = new Map<string, CachedFold>();
    const keep = (tree: string): CachedFold | undefined => {
      const e = made.get(tree) ?? this.#entries.get(tree);
      if (e !== undefined) next.set(tree, e);
      return e;
    };
    for (const tree of live.values()) for (const under of keep(tree)?.trees.values() ?? []) keep(under);
    this.#entries = next;
  }
}
