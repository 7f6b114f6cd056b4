import type { Node } from '@ctxgit/dag';
import { canonicalJson } from '@ctxgit/dag';
import { UnknownItemError, VerificationError } from '../errors.js';
import type { ExpandedOriginal, ExpandedSummary } from './expanded-summary.js';
import { hashObject } from '../git/object-hash.js';
import { readBlob } from '../git/read-blob.js';
import { readFoldTree, type FoldedEntry } from '../store/layout/fold-tree.js';
import type { RepoCore } from '../store/repo-core.js';
import type { StoredCommit } from '../store/stored-commit.js';

/** The tree of what summary `key` folded: a live summary's, or (searched through the live summaries' trees) a nested one's. */
async function treeOf(core: RepoCore, stored: StoredCommit, key: string): Promise<string> {
  const live = stored.foldTrees.get(key);
  if (live !== undefined) return live;
  const item = stored.entries.get(key)?.item;
  if (item !== undefined) throw new UnknownItemError(key, stored.commit.id, `it is ${item.state}, not a summary`);
  const queue = [...stored.foldTrees];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const e of await readFoldTree(core.git, next[1], next[0])) {
      if (e.item.key === key) {
        if (e.tree === undefined) throw new UnknownItemError(key, stored.commit.id, `it is ${e.item.state}, not a summary`);
        return e.tree;
      }
      if (e.tree !== undefined) queue.push([e.item.key, e.tree]);
    }
  }
  throw new UnknownItemError(key, stored.commit.id, 'no item with this key');
}

/** The originals under a summary's tree, in order, descending through the summaries it folded. */
async function originalsUnder(core: RepoCore, stored: StoredCommit, summary: string, tree: string): Promise<FoldedEntry[]> {
  const out: FoldedEntry[] = [];
  for (const e of await readFoldTree(core.git, tree, summary)) {
    if (e.tree !== undefined) for (const o of await originalsUnder(core, stored, e.item.key, e.tree)) out.push(o);
    else if (e.item.folded !== undefined) throw new UnknownItemError(e.item.key, stored.commit.id, `a summary folded by ${summary}, but without the tree of what it folded`);
    else out.push(e);
  }
  return out;
}

/**
 * The originals a summary folded (through the summaries it absorbed), read from the summary's tree in the commit and
 * then from the DAG by the blob oids recorded with them; every blob is re-hashed and compared with the DAG store's
 * copy of the node. Reads what the summary folded, nothing else of the history.
 */
export async function expandSummary(core: RepoCore, stored: StoredCommit, key: string): Promise<ExpandedSummary> {
  const tree = await treeOf(core, stored, key);
  const originals: ExpandedOriginal[] = [];
  for (const folded of await originalsUnder(core, stored, key, tree)) {
    const k = folded.item.key;
    if (folded.origin === undefined) throw new UnknownItemError(k, stored.commit.id, `folded by ${key} but without a recorded original`);
    const bytes = await readBlob(core.git, folded.origin);
    const actual = hashObject('blob', bytes);
    const nodeId = folded.item.attachedFrom === folded.item.key ? folded.item.key : folded.item.sourceNodeId;
    if (actual !== folded.origin) throw new VerificationError(nodeId, folded.origin, actual);
    const text = new TextDecoder().decode(bytes);
    const node = JSON.parse(text) as Node;
    const current = typeof node.session === 'string' ? await core.store.nodeIn(node.session, node.id) : undefined;
    const currentOid = current === undefined ? 'missing' : hashObject('blob', canonicalJson(current));
    if (currentOid !== folded.origin) throw new VerificationError(node.id, folded.origin, currentOid);
    originals.push({ key: k, oid: folded.origin, node, text });
  }
  return { key, commit: stored.commit.id, originals };
}
