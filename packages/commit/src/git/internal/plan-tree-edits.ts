import { GitArgumentError, ObjectNotFoundError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import type { TreeEdit } from '../tree-edit.js';
import type { TreeEntry } from '../tree-entry.js';
import { hasObjectInternal, prepareObject, storeObject } from './object-io.js';
import type { PreparedObject } from './object-io.js';
import { assertOid } from './oid.js';
import { assertPath } from './path-arg.js';
import { encodeTree, sortTree } from './tree-codec.js';
import { loadTree, rememberTree } from './tree-load.js';
import { inBatches } from './in-batches.js';

export interface NewTree {
  readonly object: PreparedObject;
  readonly sorted: readonly TreeEntry[];
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

/**
 * Applies the edits below `oid` (a tree, or null for none); returns the new tree's oid, or null when it ends up
 * empty. New trees are hashed in memory and queued on `out`, to be stored together.
 */
async function apply(ctx: GitContext, oid: string | null, trie: Trie, where: readonly string[], out: NewTree[]): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (oid !== null) for (const entry of (await loadTree(ctx, oid)).entries) entries.set(entry.path, entry);
  await Promise.all(
    [...trie.children].map(async ([name, child]) => {
      const edit = child.edit;
      if (edit !== undefined) {
        if (edit.oid === null) entries.delete(name);
        else entries.set(name, { mode: edit.type === 'tree' ? '040000' : '100644', path: name, oid: edit.oid, type: edit.type });
        return;
      }
      const existing = entries.get(name);
      if (existing !== undefined && existing.type !== 'tree') {
        throw new GitArgumentError('edits', `path ${JSON.stringify([...where, name])} is a blob, not a tree`);
      }
      const sub = await apply(ctx, existing?.oid ?? null, child, [...where, name], out);
      if (sub === null) entries.delete(name);
      else entries.set(name, { mode: '040000', path: name, oid: sub, type: 'tree' });
    }),
  );
  if (entries.size === 0) return null;
  const sorted = sortTree([...entries.values()]);
  const object = prepareObject('tree', encodeTree(sorted));
  out.push({ object, sorted });
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
  return { root: empty.oid, trees: [{ object: empty, sorted: [] }] };
}

/** Stores the planned trees (in bounded parallel batches) and caches their decoded form. */
export async function storeTrees(ctx: GitContext, trees: readonly NewTree[]): Promise<void> {
  await inBatches(trees, async ({ object }) => storeObject(ctx, object));
  for (const { object, sorted } of trees) rememberTree(ctx, object.oid, sorted);
}
