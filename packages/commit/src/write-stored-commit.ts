import type { ContextItem } from '@ctxgit/rules';
import { canonicalJson } from './canonical-json.js';
import { META_FILE } from './commit-meta.js';
import type { CommitMeta } from './commit-meta.js';
import type { ContextCommit } from './context-commit.js';
import type { GitContext } from './git/git-context.js';
import type { TreeEdit } from './git/tree-edit.js';
import { updateTree } from './git/update-tree.js';
import { writeBlob } from './git/write-blob.js';
import { writeCommit } from './git/write-commit.js';
import { assignOrderKeys } from './layout/assign-order-keys.js';
import { itemPath } from './layout/item-path.js';
import { sameItem } from './layout/same-item.js';
import type { StoredCommit, StoredItem } from './stored-commit.js';
import { coveredIds } from './stored-commit.js';

/** The fixed author and committer of every ContextCommit. */
export const AUTHOR = { name: 'ctxgit', email: 'ctxgit@localhost' } as const;

/** What {@link writeStoredCommit} writes. */
export interface CommitWrite {
  /** The commit whose tree is edited (the first parent), or null for a session's first commit. */
  readonly base: StoredCommit | null;
  readonly items: readonly ContextItem[];
  /** Origin oids of items that are new in this commit (item key → blob oid of the DAG node). */
  readonly origins: ReadonlyMap<string, string>;
  readonly meta: CommitMeta;
  readonly parents: readonly string[];
  readonly message: string;
}

/** Writes the changed item blobs, the trees on their paths, `meta.json` and the commit; returns the stored commit. */
export async function writeStoredCommit(ctx: GitContext, w: CommitWrite): Promise<StoredCommit> {
  const previous = w.base?.entries ?? new Map<string, StoredItem>();
  const orderKeys = assignOrderKeys(
    w.items.map((it) => it.key),
    new Map([...previous].map(([k, e]) => [k, e.orderKey] as const)),
  );
  const edits: TreeEdit[] = [];
  const entries = new Map<string, StoredItem>();
  const writes: Promise<void>[] = [];
  const live = new Set<string>();
  w.items.forEach((item, i) => {
    const orderKey = orderKeys[i] as string;
    const prev = previous.get(item.key);
    const origin = prev?.origin ?? w.origins.get(item.key);
    live.add(item.key);
    if (prev !== undefined && prev.orderKey === orderKey && sameItem(prev.item, item)) {
      entries.set(item.key, prev.item === item ? prev : { ...prev, item });
      return;
    }
    if (prev !== undefined && prev.orderKey !== orderKey) edits.push({ path: itemPath(prev.orderKey, item.key), oid: null, type: 'blob' });
    const path = itemPath(orderKey, item.key);
    writes.push(
      writeBlob(ctx, `${canonicalJson(origin === undefined ? item : { ...item, origin })}\n`).then((oid) => {
        entries.set(item.key, { item, orderKey, oid, ...(origin === undefined ? {} : { origin }) });
        edits.push({ path, oid, type: 'blob' });
      }),
    );
  });
  for (const [key, prev] of previous) if (!live.has(key)) edits.push({ path: itemPath(prev.orderKey, key), oid: null, type: 'blob' });
  await Promise.all(writes);
  const metaOid = await writeBlob(ctx, `${canonicalJson(w.meta)}\n`);
  edits.push({ path: [META_FILE], oid: metaOid, type: 'blob' });
  const tree = await updateTree(ctx, w.base?.tree ?? null, edits);
  const seconds = Math.floor(w.meta.createdAt / 1000);
  const identity = { ...AUTHOR, timestamp: seconds, timezoneOffset: 0 };
  const id = await writeCommit(ctx, { tree, parents: w.parents, message: w.message, author: identity, committer: identity });
  const commit: ContextCommit = {
    id,
    session: w.meta.session,
    parentIds: [...w.parents],
    headNodeId: w.meta.headNodeId,
    rulesVersion: w.meta.rulesVersion,
    model: w.meta.model,
    window: w.meta.window,
    totalTokens: w.meta.totalTokens,
    items: w.items,
    summary: w.meta.summary,
    createdAt: w.meta.createdAt,
  };
  return { commit, meta: w.meta, tree, entries, covered: coveredIds(w.items) };
}
