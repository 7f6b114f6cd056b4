import { foldInto } from '@ctxgit/rules';
import type { ContextItem } from '@ctxgit/rules';
import { UnknownItemError } from '../../errors.js';
import type { GitContext } from '../../git/git-context.js';
import { readBlob } from '../../git/read-blob.js';
import { readTree } from '../../git/read-tree.js';
import { writeBlob } from '../../git/write-blob.js';
import { writeTree } from '../../git/write-tree.js';
import type { TreeEntry } from '../../git/tree-entry.js';
import { itemBlobText } from './item-blob.js';
import { pathSafeKey } from './item-path.js';
import { ORDER_KEY_WIDTH } from './order-key.js';

/**
 * Name of the `index`-th (from 0) item a summary folded, in the summary's tree: `<position, 9 digits>-<key>`; its
 * blob is that name plus `.json`, and a folded summary's own tree is that name. Git lists them in order.
 */
export function foldedName(index: number, key: string): string {
  return `${String(index + 1).padStart(ORDER_KEY_WIDTH, '0')}-${pathSafeKey(key)}`;
}

/**
 * One item a summary folded, as its tree holds it. The tree may hold the blob the item had in the live list (the
 * same object, not a copy): a reader takes every item under a summary as `foldInto(item, summary)`.
 */
export interface FoldedEntry {
  readonly item: ContextItem;
  /** Git blob oid of the DAG node the item comes from. */
  readonly origin?: string;
  /** Oid of the item's blob. */
  readonly oid: string;
  /** For a folded summary: the tree of what it folded. */
  readonly tree?: string;
}

/** Where a new summary's tree finds what it needs. */
export interface FoldSource {
  /** The items each summary of the run folded (the pipeline result's `folds`). */
  readonly folds: ReadonlyMap<string, readonly ContextItem[]>;
  /** Tree of what a summary of the base commit folded (reused by oid, never read). */
  treeOf(summaryKey: string): string | undefined;
  /** Origin oid of an item (from the base commit or new in this one). */
  originOf(key: string): string | undefined;
  /** Oid of the base's live blob of `item`, when `item` is that blob's item as folded. */
  storedOid(item: ContextItem): string | undefined;
  /** Told the oid of each summary's tree written. */
  readonly onTree?: (summaryKey: string, tree: string) => void;
}

/**
 * Writes the tree of what the new summary `key` folded, in order: each folded item's blob from the live list of the
 * base by oid (it changed only by being folded), or a new blob of it as folded (new or changed in this run); beside
 * each folded summary's blob, its own tree — the base's by oid, or written here for a summary of the same run. Costs
 * one tree per summary made in the run and a blob only for what the base did not hold.
 */
export async function writeFoldTree(ctx: GitContext, key: string, src: FoldSource): Promise<string> {
  const list = src.folds.get(key);
  if (list === undefined) throw new UnknownItemError(key, '(the commit being written)', 'a new summary whose folded items the pipeline did not return');
  const entries: TreeEntry[] = [];
  for (const [i, item] of list.entries()) {
    const name = foldedName(i, item.key);
    const oid = src.storedOid(item) ?? (await writeBlob(ctx, itemBlobText(item, item.folded === undefined ? src.originOf(item.key) : undefined)));
    entries.push({ mode: '100644', path: `${name}.json`, oid, type: 'blob' });
    if (item.folded === undefined) continue;
    const sub = src.treeOf(item.key) ?? (await writeFoldTree(ctx, item.key, src));
    entries.push({ mode: '040000', path: name, oid: sub, type: 'tree' });
  }
  const tree = await writeTree(ctx, entries);
  src.onTree?.(key, tree);
  return tree;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The items the summary `into` folded, from its tree, in order, each with the tree of what it folded when it is a summary. */
export async function readFoldTree(ctx: GitContext, tree: string, into: string): Promise<FoldedEntry[]> {
  const entries = await readTree(ctx, tree);
  const trees = new Map<string, string>();
  for (const e of entries) if (e.type === 'tree') trees.set(e.path, e.oid);
  const blobs = entries.filter((e) => e.type === 'blob' && e.path.endsWith('.json'));
  const bytes = await Promise.all(blobs.map((e) => readBlob(ctx, e.oid)));
  return blobs.map((e, i) => {
    const { origin, ...stored } = JSON.parse(decoder.decode(bytes[i] as Uint8Array)) as ContextItem & { origin?: string };
    const sub = trees.get(e.path.slice(0, -'.json'.length));
    return { item: foldInto(stored, into), oid: e.oid, ...(origin === undefined ? {} : { origin }), ...(sub === undefined ? {} : { tree: sub }) };
  });
}

/**
 * Reads what the summary `key` folded into `into` (summary key → its folded items) from its tree, found in `trees`
 * (summary key → tree oid), and notes there the trees of the summaries among its items. One level: a fold that
 * absorbs the summary opens only as much of the nesting as its brief reads (the rules ask again for a deeper level);
 * `deep` reads every level at once (a summarizer reads all the originals). False when `trees` has no tree for `key`.
 */
export async function loadFolds(ctx: GitContext, key: string, trees: Map<string, string>, into: Map<string, readonly ContextItem[]>, deep: boolean): Promise<boolean> {
  const tree = trees.get(key);
  if (tree === undefined) return false;
  const entries = await readFoldTree(ctx, tree, key);
  into.set(key, entries.map((e) => e.item));
  for (const e of entries) {
    if (e.tree === undefined) continue;
    trees.set(e.item.key, e.tree);
    if (deep) await loadFolds(ctx, e.item.key, trees, into, true);
  }
  return true;
}
