import { GitArgumentError } from './errors.js';
import type { GitContext } from './git-context.js';
import { inBatch as runBatch } from './internal/pack-store.js';

/** Options of {@link inBatch}. */
export interface BatchOptions {
  /**
   * Keep the batch's objects in memory across ref moves, and write them as one pack (deltas searched) each time a
   * ref moves with at least this many bytes held, and when the batch ends: a long series of writes (an import's
   * thousands of turns) makes a few large packs instead of one small pack a ref move. Until then a ref may name an
   * object no file holds yet, so hold only in a repository that no other process reads meanwhile and that is thrown
   * away when the process dies (what `ctxgit import` replays into). Only the outermost batch's value counts.
   * @defaultValue `0`: the objects are stored before any ref moves
   */
  readonly holdBytes?: number;
}

/**
 * Runs `fn` as one batch of writes: the objects it stores are kept in memory and written as one pack file (not one
 * file per object) before the first ref it moves with `compareAndSwapRef` (with `holdBytes`, once that many bytes
 * are held), or when it ends; a batch inside another is part of it. Then, with automatic maintenance on
 * (`openGit`'s `maintenance`, default true), small packs are rolled up. A session's turn is one batch. Reads inside
 * the batch see its objects.
 *
 * @param ctx - the repository
 * @param fn - the writes
 * @param options - `holdBytes` (default 0); see {@link BatchOptions}
 * @returns what `fn` resolves to; its objects are stored when the promise settles, even when it rejects
 * @throws {@link GitArgumentError} when `fn` is not a function or `holdBytes` is not a byte count
 * @example
 * ```ts
 * const author = { name: 'me', email: 'me@localhost', timestamp: 1_700_000_000, timezoneOffset: 0 };
 * const commit = await inBatch(ctx, async () => {
 *   const tree = await updateTree(ctx, null, [{ path: 'a.txt', oid: await writeBlob(ctx, 'a\n'), type: 'blob' }]);
 *   return writeCommit(ctx, { tree, parents: [], message: 'one pack\n', author });
 * }); // blob, tree and commit in one pack
 * await inBatch(scratch, replayEveryTurn, { holdBytes: 16 << 20 }); // packs of ~16 MiB, refs moved meanwhile
 * ```
 */
export async function inBatch<T>(ctx: GitContext, fn: () => Promise<T>, options: BatchOptions = {}): Promise<T> {
  if (typeof fn !== 'function') throw new GitArgumentError('fn', 'expected a function that returns a promise');
  if (typeof options !== 'object' || options === null) throw new GitArgumentError('options', 'expected { holdBytes? }');
  const hold = options.holdBytes ?? 0;
  if (typeof hold !== 'number' || !(hold >= 0) || (Number.isFinite(hold) && !Number.isSafeInteger(hold))) {
    throw new GitArgumentError('options.holdBytes', 'expected bytes: an integer >= 0, or Infinity');
  }
  return runBatch(ctx, fn, hold);
}
