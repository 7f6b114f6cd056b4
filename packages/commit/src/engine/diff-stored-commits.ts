import type { ContextItem } from '@ctxgit/rules';
import { loadFolds } from '../store/layout/fold-tree.js';
import type { RepoCore } from '../store/repo-core.js';
import type { StoredCommit } from '../store/stored-commit.js';
import { diffCommits, type CommitDiff } from './diff-commits.js';

/**
 * {@link diffCommits} of two stored commits, with what `b`'s new summaries folded read from their trees one level at
 * a time, only while an item of `a` is neither live in `b` nor found under them yet: a diff of consecutive commits
 * reads at most the summaries the newer one made.
 */
export async function diffStoredCommits(core: RepoCore, a: StoredCommit, b: StoredCommit): Promise<CommitDiff> {
  const before = new Set(a.commit.items.map((it) => it.key));
  const unplaced = new Set(before);
  for (const it of b.commit.items) {
    unplaced.delete(it.key);
    if (!before.has(it.key)) for (const k of it.folded ?? []) unplaced.delete(k);
  }
  const trees = new Map(b.foldTrees);
  const folds = new Map<string, readonly ContextItem[]>();
  let open = b.commit.items.filter((it) => it.folded !== undefined && !before.has(it.key)).map((it) => it.key);
  while (unplaced.size > 0 && open.length > 0) {
    const next: string[] = [];
    for (const key of open) {
      if (!(await loadFolds(core.git, key, trees, folds, false))) continue;
      for (const it of folds.get(key) ?? []) {
        unplaced.delete(it.key);
        if (it.folded !== undefined && !before.has(it.key)) next.push(it.key);
      }
    }
    open = next;
  }
  return diffCommits(a.commit, b.commit, (key) => folds.get(key));
}
