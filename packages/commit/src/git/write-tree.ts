import { GitArgumentError } from './errors.js';
import type { GitContext } from './git-context.js';
import { writeObject } from './internal/object-io.js';
import { checkEntry, encodeTree, sortTree } from './internal/tree-codec.js';
import { rememberTree } from './internal/tree-load.js';
import type { TreeEntry } from './tree-entry.js';

/**
 * Stores a tree of the given entries, in git's order whatever their order here, and returns its oid.
 *
 * @remarks
 * It does not check that the entries' objects exist (see {@link updateTree}, which does for new entries).
 *
 * @param ctx - the repository
 * @param entries - one entry per name; names are single path segments
 * @returns the tree's oid
 * @throws {@link InvalidNameError} for a bad name, {@link GitArgumentError} for a bad oid, mode or a duplicate name
 * @example
 * ```ts
 * const tree = await writeTree(ctx, [{ mode: '100644', path: 'a.txt', oid: await writeBlob(ctx, 'a'), type: 'blob' }]);
 * ```
 */
export async function writeTree(ctx: GitContext, entries: readonly TreeEntry[]): Promise<string> {
  if (!Array.isArray(entries)) throw new GitArgumentError('entries', 'expected an array of tree entries');
  entries.forEach((entry, i) => checkEntry(entry, `entries[${i}]`));
  const sorted = sortTree(entries);
  const oid = await writeObject(ctx, 'tree', encodeTree(sorted));
  rememberTree(ctx, oid, sorted);
  return oid;
}
