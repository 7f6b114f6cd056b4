import type { GitContext } from '../git-context.js';
import type { TreeEntry } from '../tree-entry.js';
import { readTyped } from './object-io.js';
import { decodeTree } from './tree-codec.js';
import type { EncodedTree } from './tree-codec.js';

/** A decoded tree with a by-name index. */
export interface ParsedTree {
  readonly entries: readonly TreeEntry[];
  readonly byName: ReadonlyMap<string, TreeEntry>;
  /** Its bytes with each entry's offset, for a tree this process wrote (an edit copies the entries it keeps). */
  readonly encoded?: EncodedTree;
}

const MAX_TREES = 8192;
/** The property of a context's cache object that holds its decoded trees. */
const TREES = Symbol('ctxgit parsed trees');

/** The decoded trees of the repository `ctx` opens, held by its cache object. */
function treesOf(ctx: GitContext): Map<string, ParsedTree> {
  const holder = ctx.cache as { [TREES]?: Map<string, ParsedTree> };
  return (holder[TREES] ??= new Map());
}

/** Caches the decoded form of a tree (entries in git order). */
export function rememberTree(ctx: GitContext, oid: string, entries: readonly TreeEntry[], encoded?: EncodedTree): ParsedTree {
  const trees = treesOf(ctx);
  const tree: ParsedTree = { entries, byName: new Map(entries.map((e) => [e.path, e])), ...(encoded === undefined ? {} : { encoded }) };
  if (trees.size >= MAX_TREES) {
    // The oldest quarter at once (one walk over the Map's holes instead of one per insert).
    let drop = MAX_TREES / 4;
    for (const key of trees.keys()) {
      trees.delete(key);
      if (--drop === 0) break;
    }
  }
  trees.set(oid, tree);
  return tree;
}

export async function loadTree(ctx: GitContext, oid: string): Promise<ParsedTree> {
  return treesOf(ctx).get(oid) ?? rememberTree(ctx, oid, decodeTree(oid, await readTyped(ctx, oid, 'tree')));
}

/** Walks `path` from the tree `root`; the entry there, or undefined when a segment is missing or crosses a blob. */
export async function entryAt(ctx: GitContext, root: string, path: readonly string[]): Promise<TreeEntry | undefined> {
  let entry: TreeEntry = { mode: '040000', path: '', oid: root, type: 'tree' };
  for (const segment of path) {
    if (entry.type !== 'tree') return undefined;
    const next = (await loadTree(ctx, entry.oid)).byName.get(segment);
    if (next === undefined) return undefined;
    entry = next;
  }
  return entry;
}
