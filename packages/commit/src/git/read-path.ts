import type { GitContext } from './git-context.js';
import { assertOid } from './internal/oid.js';
import { assertPath } from './internal/path-arg.js';
import { entryAt } from './internal/tree-load.js';

/**
 * Looks up the object at a path below a tree, reading only the trees on that path.
 *
 * @param ctx - the repository
 * @param root - the tree to start from
 * @param path - path segments; `[]` is `root` itself
 * @returns the oid there, or undefined when nothing is there
 * @example
 * ```ts
 * const oid = await readPath(ctx, tree, ['nodes', 'ab', 'cd', 'n1.json']);
 * ```
 */
export async function readPath(ctx: GitContext, root: string, path: readonly string[]): Promise<string | undefined> {
  assertOid('root', root);
  assertPath('path', path);
  return (await entryAt(ctx, root, path))?.oid;
}
