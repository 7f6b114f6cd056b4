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
import { inBatches } from './git/internal/in-batches.js';


/** The base's pointers plus those of the new items; shares the base's set when nothing was attached. */
function nextPointers(base: StoredCommit | null, items: readonly ContextItem[]): ReadonlySet<string> {
  const before = base?.pointers ?? new Set<string>();
  let out: Set<string> | undefined;
  for (const it of items) {
    if (it.attachedFrom === undefined || before.has(it.attachedFrom) || out?.has(it.attachedFrom) === true) continue;
    out ??= new Set(before);
    out.add(it.attachedFrom);
  }
  return out ?? before;
}

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
    (key) => previous.get(key)?.orderKey,
  );
  const edits: TreeEdit[] = [];
  const entries = new Map<string, StoredItem>();
  const pending: { item: ContextItem; orderKey: string; origin: string | undefined }[] = [];
  let kept = 0;
  w.items.forEach((item, i) => {
    const orderKey = orderKeys[i] as string;
    const prev = previous.get(item.key);
    if (prev !== undefined) kept++;
    if (prev !== undefined && prev.orderKey === orderKey && sameItem(prev.item, item)) {
      entries.set(item.key, prev.item === item ? prev : { ...prev, item });
      return;
    }
    if (prev !== undefined && prev.orderKey !== orderKey) edits.push({ path: itemPath(prev.orderKey, item.key), oid: null, type: 'blob' });
    pending.push({ item, orderKey, origin: prev?.origin ?? w.origins.get(item.key) });
  });
  if (kept < previous.size) {
    const live = new Set(w.items.map((it) => it.key));
    for (const [key, prev] of previous) if (!live.has(key)) edits.push({ path: itemPath(prev.orderKey, key), oid: null, type: 'blob' });
  }
  // bounded parallelism: a first commit of a long imported session writes one blob per item
  await inBatches(pending, async ({ item, orderKey, origin }) => {
    const oid = await writeBlob(ctx, `${canonicalJson(origin === undefined ? item : { ...item, origin })}\n`);
    entries.set(item.key, { item, orderKey, oid, ...(origin === undefined ? {} : { origin }) });
    edits.push({ path: itemPath(orderKey, item.key), oid, type: 'blob' });
  });
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
  return { commit, meta: w.meta, tree, entries, pointers: nextPointers(w.base, w.items) };
}
