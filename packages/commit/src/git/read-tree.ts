import type { GitContext } from './git-context.js';
import { readTyped } from './internal/object-io.js';
import { assertOid } from './internal/oid.js';
import { decodeTree } from './internal/tree-codec.js';
import type { TreeEntry } from './tree-entry.js';

/**
 * Reads a tree's entries, in git's order.
 *
 * @param ctx - the repository
 * @param oid - the tree's id
 * @returns its entries
 * @throws {@link ObjectNotFoundError}, {@link ObjectTypeError} when `oid` is not a tree, {@link CorruptObjectError}
 * for a mode ctxgit never writes
 * @example
 * ```ts
 * const names = (await readTree(ctx, tree)).map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.path}`);
 * ```
 */
export async function readTree(ctx: GitContext, oid: string): Promise<readonly TreeEntry[]> {
  assertOid('oid', oid);
  return decodeTree(oid, await readTyped(ctx, oid, 'tree'));
}
