import type { ContextItem, FoldedLookup } from '@ctxgit/rules';
import type { ContextCommit } from '../store/context-commit.js';

/** One item that differs between two commits. */
export interface ItemChange {
  readonly key: string;
  readonly role: string;
  /** State in the older commit; `null` when the item is new. */
  readonly from: string | null;
  /** State in the newer commit; `null` when the item is gone. */
  readonly to: string | null;
  readonly tokensFrom: number | null;
  readonly tokensTo: number | null;
  /** Why the item is in its new state: the rule's `reason`, `folded` (into a summary of the newer commit), or `not in the newer commit`. */
  readonly reason: string;
}

/** What {@link diffCommits} found. */
export interface CommitDiff {
  readonly a: string;
  readonly b: string;
  /** Total tokens of `a` and of `b`. */
  readonly tokens: readonly [number, number];
  /**
   * Items of `b` that are new or differ from `a` (in `b`'s order), then the items of `a` that `b`'s live list lacks:
   * folded into one of its summaries, at any depth of the summaries `b` made (`to: 'summarized'`, reason `folded`), or
   * gone.
   */
  readonly changes: readonly ItemChange[];
}

const same = (x: ContextItem, y: ContextItem): boolean =>
  x.state === y.state && x.tokens === y.tokens && JSON.stringify(x.blocks) === JSON.stringify(y.blocks);

/**
 * Compares two ContextCommits item by item: which items were added, removed, or changed state or content, and the
 * reason the rules gave. Pure; the commits can be of any sessions. An item of `a` that `b` folded into a summary which
 * another new summary of `b` absorbed is found through `folds`; {@link Repo.diff} reads those from the repository.
 *
 * @param a - The older commit.
 * @param b - The newer commit.
 * @param folds - The items a summary new in `b` folded, for the summaries that `b`'s live list does not hold (a
 * pipeline result's `folds`). @defaultValue none: only what `b`'s live summaries folded directly counts as folded
 * @returns The changes, in the newer commit's item order, then the removed items.
 * @example
 * ```ts
 * const d = diffCommits(await repo.readCommit(older), await repo.readCommit(newer));
 * for (const c of d.changes) process.stdout.write(`${c.key}: ${c.from} -> ${c.to} (${c.reason})\n`);
 * ```
 */
export function diffCommits(a: ContextCommit, b: ContextCommit, folds?: FoldedLookup): CommitDiff {
  const before = new Map(a.items.map((it) => [it.key, it]));
  const after = new Set(b.items.map((it) => it.key));
  const changes: ItemChange[] = [];
  for (const it of b.items) {
    const old = before.get(it.key);
    if (old !== undefined && same(old, it)) continue;
    changes.push({ key: it.key, role: it.role, from: old?.state ?? null, to: it.state, tokensFrom: old?.tokens ?? null, tokensTo: it.tokens, reason: it.reason });
  }
  const folded = new Set<string>();
  const under = (keys: readonly string[]): void => {
    for (const k of keys) {
      folded.add(k);
      const nested = before.has(k) ? undefined : folds?.(k); // a summary made after a: what it folded may be a's
      if (nested !== undefined) under(nested.map((it) => it.key));
    }
  };
  for (const it of b.items) if (it.folded !== undefined && !before.has(it.key)) under(it.folded);
  for (const it of a.items) {
    if (after.has(it.key)) continue;
    if (folded.has(it.key)) changes.push({ key: it.key, role: it.role, from: it.state, to: 'summarized', tokensFrom: it.tokens, tokensTo: 0, reason: 'folded' });
    else changes.push({ key: it.key, role: it.role, from: it.state, to: null, tokensFrom: it.tokens, tokensTo: null, reason: 'not in the newer commit' });
  }
  return { a: a.id, b: b.id, tokens: [a.totalTokens, b.totalTokens], changes };
}
