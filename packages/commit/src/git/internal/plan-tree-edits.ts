import { GitArgumentError, ObjectNotFoundError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import type { TreeEdit } from '../tree-edit.js';
import type { TreeEntry } from '../tree-entry.js';
import { hasObjectInternal, prepareObject, storeObject } from './object-io.js';
import type { PreparedObject } from './object-io.js';
import { assertOid } from './oid.js';
import { assertPath } from './path-arg.js';
import { compareEntries, encodeTreeEdit, encodeTreeOffsets } from './tree-codec.js';
import { loadTree, rememberTree } from './tree-load.js';
import { inBatches } from './in-batches.js';

export interface NewTree {
  readonly object: PreparedObject;
  readonly sorted: readonly TreeEntry[];
  /** Offsets of the entries in the object's content. */
  readonly offsets: Uint32Array;
}

interface Trie {
  edit?: TreeEdit;
  readonly children: Map<string, Trie>;
}

function buildTrie(edits: readonly TreeEdit[]): Trie {
  const root: Trie = { children: new Map() };
  edits.forEach((edit, i) => {
    let node = root;
    edit.path.forEach((segment, depth) => {
      if (node.edit !== undefined) throw new GitArgumentError(`edits[${i}].path`, `lies below another edit's path ${JSON.stringify(edit.path.slice(0, depth))}`);
      let child = node.children.get(segment);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(segment, child);
      }
      node = child;
    });
    if (node.edit !== undefined || node.children.size > 0) throw new GitArgumentError(`edits[${i}].path`, 'is edited twice, or lies above another edit');
    node.edit = edit;
  });
  return root;
}

/** `sorted` (git's order) with the entries of `changed` replacing, removing (null) or joining those of their name. */
function withChanges(sorted: readonly TreeEntry[], changed: ReadonlyMap<string, TreeEntry | null>): TreeEntry[] {
  const out: TreeEntry[] = [];
  const joining: TreeEntry[] = [];
  const seen = new Set<string>();
  for (const entry of sorted) {
    const next = changed.get(entry.path);
    if (next === undefined) {
      out.push(entry);
      continue;
    }
    seen.add(entry.path);
    // same name and type: same place in git's order (a blob that becomes a tree moves, as if its name ended in '/')
    if (next !== null && next.type === entry.type) out.push(next);
    else if (next !== null) joining.push(next);
  }
  for (const [name, next] of changed) if (next !== null && !seen.has(name)) joining.push(next);
  for (const entry of joining) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareEntries(out[mid] as TreeEntry, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, entry);
  }
  return out;
}

/**
 * Applies the edits below `oid` (a tree, or null for none); returns the new tree's oid, or null when it ends up
 * empty. New trees are hashed in memory and queued on `out`, to be stored together. The entries keep their order
 * (only the entries that join are placed), so an edit costs the tree's size once, not a sort; of a tree this process
 * wrote, the bytes of the entries kept are copied ({@link encodeTreeEdit}), not written again.
 */
async function apply(ctx: GitContext, oid: string | null, trie: Trie, where: readonly string[], out: NewTree[]): Promise<string | null> {
  const tree = oid === null ? undefined : await loadTree(ctx, oid);
  const changed = new Map<string, TreeEntry | null>();
  await Promise.all(
    [...trie.children].map(async ([name, child]) => {
      const edit = child.edit;
      if (edit !== undefined) {
        changed.set(name, edit.oid === null ? null : { mode: edit.type === 'tree' ? '040000' : '100644', path: name, oid: edit.oid, type: edit.type });
        return;
      }
      const existing = tree?.byName.get(name);
      if (existing !== undefined && existing.type !== 'tree') {
        throw new GitArgumentError('edits', `path ${JSON.stringify([...where, name])} is a blob, not a tree`);
      }
      const sub = await apply(ctx, existing?.oid ?? null, child, [...where, name], out);
      changed.set(name, sub === null ? null : { mode: '040000', path: name, oid: sub, type: 'tree' });
    }),
  );
  const sorted = withChanges(tree?.entries ?? [], changed);
  if (sorted.length === 0) return null;
  const { content, offsets } = tree?.encoded === undefined ? encodeTreeOffsets(sorted) : encodeTreeEdit(tree.entries, tree.encoded, sorted);
  const object = prepareObject('tree', content);
  out.push({ object, sorted, offsets });
  return object.oid;
}

/** The result of {@link planTreeEdits}: the new root and the trees to store for it. */
export interface TreePlan {
  readonly root: string;
  readonly trees: readonly NewTree[];
}

/**
 * Validates the edits and computes the new trees in memory, reading only the trees on the edited paths. An edit's
 * oid must exist, or be in `staged` (objects the caller stores together with the trees).
 */
export async function planTreeEdits(ctx: GitContext, root: string | null, edits: readonly TreeEdit[], staged: ReadonlySet<string>): Promise<TreePlan> {
  if (root !== null) assertOid('root', root);
  if (!Array.isArray(edits)) throw new GitArgumentError('edits', 'expected an array');
  edits.forEach((edit, i) => {
    if (typeof edit !== 'object' || edit === null) throw new GitArgumentError(`edits[${i}]`, 'not an object');
    assertPath(`edits[${i}].path`, edit.path);
    if (edit.path.length === 0) throw new GitArgumentError(`edits[${i}].path`, 'is empty');
    if (edit.type !== 'blob' && edit.type !== 'tree') throw new GitArgumentError(`edits[${i}].type`, "expected 'blob' or 'tree'");
    if (edit.oid !== null) assertOid(`edits[${i}].oid`, edit.oid);
  });
  const trie = buildTrie(edits);
  for (const edit of edits) {
    if (edit.oid !== null && !staged.has(edit.oid) && !(await hasObjectInternal(ctx, edit.oid))) throw new ObjectNotFoundError(edit.oid);
  }
  const trees: NewTree[] = [];
  const oid = await apply(ctx, root, trie, [], trees);
  if (oid !== null) return { root: oid, trees };
  const empty = prepareObject('tree', new Uint8Array(0));
  return { root: empty.oid, trees: [{ object: empty, sorted: [], offsets: Uint32Array.of(0) }] };
}

/** Stores the planned trees (in bounded parallel batches) and caches their decoded form. */
export async function storeTrees(ctx: GitContext, trees: readonly NewTree[]): Promise<void> {
  await inBatches(trees, async ({ object }) => storeObject(ctx, object));
  for (const { object, sorted, offsets } of trees) rememberTree(ctx, object.oid, sorted, { content: object.wrapped.subarray(object.headerLength), offsets });
}
