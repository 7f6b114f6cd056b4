import { GitError, GitIoError, RefConflictError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { ensureDir, renameFile, unlinkQuietly, writeExclusive } from './fs-ops.js';
import { flushBeforeRefMove } from './pack-store.js';
import { readRefValue } from './ref-io.js';
import { acquireRefLock, releaseLock, stillHeld, valuePath } from './ref-lock.js';

/** A ref move made ready under its lock by {@link prepareRefMove}. */
export interface PreparedRefMove {
  /** Stores the batch's pending objects, checks that the lock is still this writer's, renames the value onto the ref, releases the lock. */
  commit(): Promise<void>;
}

/**
 * The steps of `compareAndSwapRef` before the rename: `<ref>.lock` taken and the ref checked against `expected`, then
 * `next` written to the writer's value file (fsync) while `alongside` runs (what must be on disk before the rename: the
 * batch's pack, or a write of another ref that must land first), so their fsyncs overlap. A lock or check that fails
 * throws before `alongside` starts. On failure nothing of the move is left: the value removed, the lock released.
 */
export async function prepareRefMove(ctx: GitContext, ref: string, expected: string | null, next: string, alongside: () => Promise<void>): Promise<PreparedRefMove> {
  const path = `${ctx.gitdir}/${ref}`;
  const lock = `${path}.lock`;
  await ensureDir(ctx, path.slice(0, path.lastIndexOf('/')));
  const held = await acquireRefLock(ctx, ref, lock, expected);
  const value = valuePath(lock, held.nonce);
  const release = async (): Promise<void> => {
    await unlinkQuietly(ctx, value);
    await releaseLock(ctx, held);
  };
  try {
    const actual = await readRefValue(ctx, ref).catch((err: unknown) => {
      throw err instanceof GitError ? err : new GitIoError('read', path, err);
    });
    if (actual !== expected) throw new RefConflictError(ref, 'moved', expected, actual);
    const written = writeExclusive(ctx, value, Buffer.from(`${next}\n`, 'latin1')).catch((err: unknown) => {
      throw new GitIoError('write', value, err);
    });
    const [other, own] = await Promise.allSettled([Promise.resolve().then(alongside), written]);
    if (other.status === 'rejected') throw other.reason;
    if (own.status === 'rejected') throw own.reason;
  } catch (err) {
    await release();
    throw err;
  }
  return {
    commit: async () => {
      try {
        await flushBeforeRefMove(ctx); // objects of open batches are stored before the ref moves (unless held)
        if (!(await stillHeld(ctx, held))) throw new RefConflictError(ref, 'locked', expected, null);
        await renameFile(ctx, value, path);
      } catch (err) {
        await release();
        if (err instanceof GitError) throw err;
        throw new GitIoError('rename', value, err);
      }
      await releaseLock(ctx, held);
    },
  };
}
