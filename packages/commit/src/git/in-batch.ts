import { GitArgumentError } from './errors.js';
import type { GitContext } from './git-context.js';
import { inBatch as runBatch } from './internal/pack-store.js';

/**
 * Runs `fn` as one batch of writes: the objects it stores are kept in memory and written as one pack file (not one
 * file per object) before the first ref it moves with `compareAndSwapRef`, or when it ends; a batch inside another
 * is part of it. Then, with automatic maintenance on (`openGit`'s `maintenance`, default true), small packs are
 * rolled up. A session's turn is one batch. Reads inside the batch see its objects.
 *
 * @param ctx - the repository
 * @param fn - the writes
 * @returns what `fn` resolves to; its objects are stored when the promise settles, even when it rejects
 * @example
 * ```ts
 * const author = { name: 'me', email: 'me@localhost', timestamp: 1_700_000_000, timezoneOffset: 0 };
 * const commit = await inBatch(ctx, async () => {
 *   const tree = await updateTree(ctx, null, [{ path: 'a.txt', oid: await writeBlob(ctx, 'a\n'), type: 'blob' }]);
 *   return writeCommit(ctx, { tree, parents: [], message: 'one pack\n', author });
 * }); // blob, tree and commit in one pack
 * ```
 */
export async function inBatch<T>(ctx: GitContext, fn: () => Promise<T>): Promise<T> {
  if (typeof fn !== 'function') throw new GitArgumentError('fn', 'expected a function that returns a promise');
  return runBatch(ctx, fn);
}
