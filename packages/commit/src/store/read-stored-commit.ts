import type { ContextItem } from '@ctxgit/rules';
import { parseCommitMeta, META_FILE } from './commit-meta.js';
import type { ContextCommit } from './context-commit.js';
import { UnknownCommitError } from '../errors.js';
import type { GitContext } from '../git/git-context.js';
import { listTree } from '../git/list-tree.js';
import { readBlob } from '../git/read-blob.js';
import { readCommitObject } from '../git/read-commit-object.js';
import { readPath } from '../git/read-path.js';
import { ITEMS_DIR, orderKeyOfFileName } from './layout/item-path.js';
import type { StoredCommit } from './stored-commit.js';
import { StoredEntries } from './stored-entries.js';
import { ChunkedList } from './layout/chunked-list.js';
import { countStates } from './layout/state-counts.js';
import { pointerIds } from './stored-commit.js';
import { readCommitTools } from './tools/commit-tools.js';

const OID = /^[0-9a-f]{40}$/;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads a ContextCommit and its layout from git; {@link UnknownCommitError} when `oid` is no ContextCommit. */
export async function readStoredCommit(ctx: GitContext, oid: string): Promise<StoredCommit> {
  if (typeof oid !== 'string' || !OID.test(oid)) throw new UnknownCommitError(typeof oid === 'string' ? oid.slice(0, 100) : `(a ${oid === null ? 'null' : typeof oid})`, 'not 40 lowercase hex digits');
  let raw;
  try {
    raw = await readCommitObject(ctx, oid);
  } catch (err) {
    throw new UnknownCommitError(oid, err instanceof Error && 'code' in err ? String(err.code) : 'unreadable');
  }
  const metaOid = await readPath(ctx, raw.tree, [META_FILE]);
  if (metaOid === undefined) throw new UnknownCommitError(oid, 'a git commit, but not a ContextCommit (no meta.json)');
  const meta = parseCommitMeta(decoder.decode(await readBlob(ctx, metaOid)));
  if (typeof meta === 'string') throw new UnknownCommitError(oid, meta);
  // The live items only: a summary's tree (what it folded) is recorded by oid, never read.
  const files: { name: string; oid: string }[] = [];
  const trees = new Map<string, string>();
  for (const top of await listTree(ctx, raw.tree, [ITEMS_DIR])) {
    for (const mid of await listTree(ctx, raw.tree, [ITEMS_DIR, top.path])) {
      for (const leaf of await listTree(ctx, raw.tree, [ITEMS_DIR, top.path, mid.path])) {
        if (leaf.type === 'tree') trees.set(`${leaf.path}.json`, leaf.oid);
        else files.push({ name: leaf.path, oid: leaf.oid });
      }
    }
  }
  const blobs = await Promise.all(files.map((f) => readBlob(ctx, f.oid)));
  const items: ContextItem[] = [];
  const origins: (string | undefined)[] = [];
  const foldTrees = new Map<string, string>();
  files.forEach((f, i) => {
    const record = JSON.parse(decoder.decode(blobs[i] as Uint8Array)) as ContextItem & { origin?: string };
    const { origin, ...item } = record;
    items.push(item);
    origins.push(origin);
    const tree = trees.get(f.name);
    if (tree !== undefined) foldTrees.set(item.key, tree);
  });
  const entries = StoredEntries.build(
    items,
    ChunkedList.from(files.map((f) => orderKeyOfFileName(f.name))),
    ChunkedList.from(files.map((f) => f.oid)),
    ChunkedList.from(origins),
  );
  if (items.length !== meta.itemCount) throw new UnknownCommitError(oid, `meta.json counts ${meta.itemCount} items, the tree holds ${items.length}`);
  const tools = await readCommitTools(ctx, oid, raw.tree);
  const commit: ContextCommit = {
    id: oid,
    session: meta.session,
    parentIds: [...raw.parents],
    headNodeId: meta.headNodeId,
    rulesVersion: meta.rulesVersion,
    model: meta.model,
    window: meta.window,
    totalTokens: meta.totalTokens,
    items,
    foldedItems: meta.foldedItems,
    summary: meta.summary,
    createdAt: meta.createdAt,
    ...(tools === undefined ? {} : { tools }),
  };
  return { commit, meta, tree: raw.tree, entries, foldTrees, counts: { ...countStates(items), summarized: meta.foldedItems }, pointers: pointerIds(items) };
}
