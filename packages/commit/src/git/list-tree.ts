import { ObjectTypeError } from './errors.js';
import type { GitContext } from './git-context.js';
import { assertOid } from './internal/oid.js';
import { assertPath } from './internal/path-arg.js';
import { entryAt, loadTree } from './internal/tree-load.js';
import type { TreeEntry } from './tree-entry.js';

/**
 * Lists the entries of the tree at a path below `root`, in git's order.
 *
 * @param ctx - the repository
 * @param root - the tree to start from
 * @param path - path segments; `[]` lists `root`
 * @returns the entries, or `[]` when nothing is at `path`
 * @throws {@link ObjectTypeError} when `path` names a blob
 * @example
 * ```ts
 * const shards = await listTree(ctx, tree, ['nodes']);
 * ```
 */
export async function listTree(ctx: GitContext, root: string, path: readonly string[]): Promise<readonly TreeEntry[]> {
  assertOid('root', root);
  assertPath('path', path);
  const entry = await entryAt(ctx, root, path);
  if (entry === undefined) return [];
  if (entry.type !== 'tree') throw new ObjectTypeError(entry.oid, 'tree', entry.type);
  return (await loadTree(ctx, entry.oid)).entries;
}
