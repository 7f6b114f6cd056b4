import { foldInto } from '@ctxgit/rules';
import type { ContextItem } from '@ctxgit/rules';
import { canonicalJson } from '@ctxgit/dag';
import { itemBlobText } from './layout/item-blob.js';
import { writeFoldTree, type FoldSource } from './layout/fold-tree.js';
import { META_FILE } from './commit-meta.js';
import type { CommitMeta } from './commit-meta.js';
import type { ContextCommit } from './context-commit.js';
import type { GitContext } from '../git/git-context.js';
import type { TreeEdit } from '../git/tree-edit.js';
import { updateTree } from '../git/update-tree.js';
import { writeBlob } from '../git/write-blob.js';
import { writeCommit } from '../git/write-commit.js';
import { assignOrderKeys } from './layout/assign-order-keys.js';
import { foldPath, itemPath } from './layout/item-path.js';
import { sameItem } from './layout/same-item.js';
import type { StoredCommit } from './stored-commit.js';
import { StoredEntries } from './stored-entries.js';
import type { StateCounts } from './layout/state-counts.js';
import { orderKeyBetween } from './layout/order-key.js';
import { ChunkedList } from './layout/chunked-list.js';
import { inBatches } from '../git/internal/in-batches.js';
import { dropTools, toolsEdits, type CommitTools } from './tools/commit-tools.js';


/** The base's pointers plus those of `items` at `at` (every position when undefined); shares the base's set when nothing was attached. */
function nextPointers(base: StoredCommit | null, items: readonly ContextItem[], at: Iterable<number> | undefined): ReadonlySet<string> {
  const before = base?.pointers ?? new Set<string>();
  let out: Set<string> | undefined;
  const look = (it: ContextItem): void => {
    if (it.attachedFrom === undefined || before.has(it.attachedFrom) || out?.has(it.attachedFrom) === true) return;
    out ??= new Set(before);
    out.add(it.attachedFrom);
  };
  if (at === undefined) for (const it of items) look(it);
  else for (const i of at) look(items[i] as ContextItem);
  return out ?? before;
}

/** The fixed author and committer of every ContextCommit. */
export const AUTHOR = { name: 'ctxgit', email: 'ctxgit@localhost' } as const;

/** What {@link writeStoredCommit} writes. */
export interface CommitWrite {
  /** The commit whose tree is edited (the first parent), or null for a session's first commit. */
  readonly base: StoredCommit | null;
  /** The live list: the visible items. */
  readonly items: readonly ContextItem[];
  /** What each new summary folded (the pipeline result's `folds`); stored under the summary. @defaultValue none */
  readonly folds?: ReadonlyMap<string, readonly ContextItem[]>;
  /** Positions where `items` holds another object than the base's items, when it keeps every base key in place (see `inPlaceChanges`). */
  readonly changed: readonly number[] | undefined;
  /** States of `items`. */
  readonly counts: StateCounts;
  /** Origin oids of items that are new in this commit (item key → blob oid of the DAG node). */
  readonly origins: ReadonlyMap<string, string>;
  readonly meta: CommitMeta;
  readonly parents: readonly string[];
  readonly message: string;
  /** The tools the commit advertises, stored under `tools/`. @defaultValue none (and a base's `tools/` is removed) */
  readonly tools?: CommitTools;
  /** Told the oid of each fold tree written (a new summary's, nested ones included). */
  readonly onFoldTree?: (summaryKey: string, tree: string) => void;
}

interface Pending {
  readonly at: number;
  readonly item: ContextItem;
  readonly orderKey: string;
  readonly origin: string | undefined;
}

/** Where the items go: the blobs to write, the tree edits besides them, and the layout lists once the new blobs' oids are known. */
interface Layout {
  readonly pending: readonly Pending[];
  readonly edits: TreeEdit[];
  lists(written: ReadonlyMap<number, string>): { orderKeys: ChunkedList<string>; oids: ChunkedList<string>; origins: ChunkedList<string | undefined> };
  /** Tree of what each live summary folded. */
  readonly foldTrees: ReadonlyMap<string, string>;
}

/** Layout of `w.items` kept in place over the base: the base's order keys and blobs, new keys after the last one; O(changed). */
function inPlace(base: StoredCommit, w: CommitWrite, changed: readonly number[]): Layout {
  const before = base.commit.items;
  const e = base.entries;
  const pending: Pending[] = [];
  const originSet: [number, string | undefined][] = [];
  for (const i of changed) {
    const item = w.items[i] as ContextItem;
    if (sameItem(before[i] as ContextItem, item)) continue;
    const had = e.origins.at(i);
    const origin = had ?? w.origins.get(item.key);
    if (origin !== had) originSet.push([i, origin]);
    pending.push({ at: i, item, orderKey: e.orderKeys.at(i) as string, origin });
  }
  const newKeys: string[] = [];
  const newOrigins: (string | undefined)[] = [];
  let last = e.orderKeys.at(e.orderKeys.length - 1) ?? null;
  for (let i = before.length; i < w.items.length; i++) {
    const item = w.items[i] as ContextItem;
    last = orderKeyBetween(last, null);
    newKeys.push(last);
    newOrigins.push(w.origins.get(item.key));
    pending.push({ at: i, item, orderKey: last, origin: newOrigins.at(-1) });
  }
  return {
    pending,
    edits: [],
    foldTrees: base.foldTrees,
    lists(written) {
      const oldOids: [number, string][] = [];
      const newOids: string[] = [];
      for (const [i, oid] of written) if (i < before.length) oldOids.push([i, oid]);
      for (let i = before.length; i < w.items.length; i++) newOids.push(written.get(i) as string);
      return { orderKeys: e.orderKeys.with([], newKeys), oids: e.oids.with(oldOids, newOids), origins: e.origins.with(originSet, newOrigins) };
    },
  };
}

/**
 * Layout of any `w.items`: keys keep their order keys where the order allows, moved and dropped items leave their
 * paths (a summary's tree moves with its blob); each new summary gets the tree of what it folded.
 */
async function anyOrder(ctx: GitContext, base: StoredCommit | null, w: CommitWrite): Promise<Layout> {
  const e = base?.entries;
  const keys = w.items.map((it) => it.key);
  const orderKeys = assignOrderKeys(keys, (key) => e?.get(key)?.orderKey);
  const oids: string[] = [];
  const origins: (string | undefined)[] = [];
  const edits: TreeEdit[] = [];
  const pending: Pending[] = [];
  const folds = w.folds ?? new Map<string, readonly ContextItem[]>();
  const src: FoldSource = {
    folds,
    treeOf: (key) => base?.foldTrees.get(key),
    originOf: (key) => e?.get(key)?.origin ?? w.origins.get(key),
    storedOid(item) {
      const prev = e?.get(item.key);
      return prev !== undefined && item.mergedInto !== undefined && sameItem(foldInto(prev.item, item.mergedInto), item) ? prev.oid : undefined;
    },
    ...(w.onFoldTree === undefined ? {} : { onTree: w.onFoldTree }),
  };
  const foldTrees = new Map<string, string>();
  let kept = 0;
  for (const [i, item] of w.items.entries()) {
    const orderKey = orderKeys[i] as string;
    const prev = e?.get(item.key);
    if (prev !== undefined) kept++;
    const origin = prev?.origin ?? w.origins.get(item.key);
    oids.push(prev?.oid ?? '');
    origins.push(origin);
    const had = base?.foldTrees.get(item.key);
    const tree = had ?? (folds.has(item.key) ? await writeFoldTree(ctx, item.key, src) : undefined);
    if (tree !== undefined) foldTrees.set(item.key, tree);
    if (prev !== undefined && prev.orderKey === orderKey && sameItem(prev.item, item)) continue;
    if (prev !== undefined && prev.orderKey !== orderKey) {
      edits.push({ path: itemPath(prev.orderKey, item.key), oid: null, type: 'blob' });
      if (had !== undefined) edits.push({ path: foldPath(prev.orderKey, item.key), oid: null, type: 'tree' });
    }
    if (tree !== undefined && (had === undefined || prev?.orderKey !== orderKey)) edits.push({ path: foldPath(orderKey, item.key), oid: tree, type: 'tree' });
    pending.push({ at: i, item, orderKey, origin });
  }
  if (base !== null && kept < base.commit.items.length) {
    const live = new Set(keys);
    base.commit.items.forEach((it, i) => {
      if (live.has(it.key)) return;
      const at = base.entries.orderKeys.at(i) as string;
      edits.push({ path: itemPath(at, it.key), oid: null, type: 'blob' });
      if (base.foldTrees.has(it.key)) edits.push({ path: foldPath(at, it.key), oid: null, type: 'tree' });
    });
  }
  return {
    pending,
    edits,
    foldTrees,
    lists(written) {
      for (const [i, oid] of written) oids[i] = oid;
      return { orderKeys: ChunkedList.from(orderKeys), oids: ChunkedList.from(oids), origins: ChunkedList.from(origins) };
    },
  };
}

/** Writes the changed item blobs, the trees on their paths, `meta.json` and the commit; returns the stored commit. */
export async function writeStoredCommit(ctx: GitContext, w: CommitWrite): Promise<StoredCommit> {
  const { base, changed } = w;
  const layout = base !== null && changed !== undefined && (w.folds === undefined || w.folds.size === 0) ? inPlace(base, w, changed) : await anyOrder(ctx, base, w);
  const { pending, edits } = layout;
  const written = new Map<number, string>();
  // bounded parallelism: a first commit of a long imported session writes one blob per item
  await inBatches(pending, async ({ at, item, orderKey, origin }) => {
    const oid = await writeBlob(ctx, itemBlobText(item, origin));
    written.set(at, oid);
    edits.push({ path: itemPath(orderKey, item.key), oid, type: 'blob' });
  });
  const { orderKeys, oids, origins } = layout.lists(written);
  const metaOid = await writeBlob(ctx, `${canonicalJson(w.meta)}\n`);
  edits.push({ path: [META_FILE], oid: metaOid, type: 'blob' });
  if (w.tools !== undefined) edits.push(...(await toolsEdits(ctx, w.tools)));
  else if (w.base?.commit.tools !== undefined) edits.push(dropTools);
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
    foldedItems: w.meta.foldedItems,
    summary: w.meta.summary,
    createdAt: w.meta.createdAt,
    ...(w.tools === undefined ? {} : { tools: w.tools }),
  };
  const entries =
    base !== null && changed !== undefined && layout.foldTrees === base.foldTrees
      ? StoredEntries.extend(base.entries, w.items, orderKeys, oids, origins)
      : StoredEntries.build(w.items, orderKeys, oids, origins);
  const touched = changed === undefined ? undefined : [...changed, ...pending.map((p) => p.at)];
  return { commit, meta: w.meta, tree, entries, foldTrees: layout.foldTrees, counts: w.counts, pointers: nextPointers(w.base, w.items, base === null ? undefined : touched) };
}
