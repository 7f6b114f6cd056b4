import type { ContextItem } from '@ctxgit/rules';
import type { CommitMeta } from './commit-meta.js';
import type { ContextCommit } from './context-commit.js';
import type { StoredEntries } from './stored-entries.js';
import type { StateCounts } from './layout/state-counts.js';

/** A ContextCommit with what the engine needs to write its children in O(changed items); it holds the live items only. */
export interface StoredCommit {
  readonly commit: ContextCommit;
  readonly meta: CommitMeta;
  /** Root tree oid. */
  readonly tree: string;
  /** Where each live item lives, by key. */
  readonly entries: StoredEntries;
  /** For each live summary: the tree of what it folded (`items/…/<order key>-<key>/`), never read to write a child. */
  readonly foldTrees: ReadonlyMap<string, string>;
  /** Items per state. */
  readonly counts: StateCounts;
  /** Attach pointer node ids the commit expanded (`attachedFrom` values). */
  readonly pointers: ReadonlySet<string>;
}

/** The attach pointers a list of items expanded. */
export function pointerIds(items: readonly ContextItem[]): Set<string> {
  const out = new Set<string>();
  for (const it of items) if (it.attachedFrom !== undefined) out.add(it.attachedFrom);
  return out;
}

/**
 * Whether the commit already holds node `id`: an item keyed by it (node items are keyed by their node id) or an
 * attach pointer it expanded.
 */
export function holdsNode(stored: StoredCommit, id: string): boolean {
  // Only the head node and its callees are asked about: the latest round, which no fold takes, so they are live.
  return stored.entries.has(id) || stored.pointers.has(id);
}
