import { GitError, GitIoError, RefConflictError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { ensureDir, renameFile, unlinkQuietly, writeExclusive } from './fs-ops.js';
import { flushBeforeRefMove } from './pack-store.js';
import { readRefValue } from './ref-io.js';
import { acquireRefLock, releaseLock, stillHeld, valuePath } from './ref-lock.js';

/** A file-system failure of `op` on `file` as {@link GitIoError}; a git error passes through. */
const asIo =
  (op: string, file: string) =>
  (err: unknown): never => {
    throw err instanceof GitError ? err : new GitIoError(op, file, err);
  };

/**
 * The steps of `compareAndSwapRef` after its argument checks: `<ref>.lock` taken and the ref checked against
 * `expected`; `next` written to the writer's value file (fsync) while `before` (a write that must land before this ref
 * moves; default: none) and then the batch's pending objects are written, so their fsyncs overlap; the lock checked as
 * still the writer's, the value renamed onto the ref, the lock released. A lock or check that fails throws before
 * `before` starts; `before`'s errors pass through; on any failure the value is removed and the lock released.
 */
export async function moveRef(ctx: GitContext, ref: string, expected: string | null, next: string, before: () => Promise<void> = async () => undefined): Promise<void> {
  const path = `${ctx.gitdir}/${ref}`;
  const lock = `${path}.lock`;
  await ensureDir(ctx, path.slice(0, path.lastIndexOf('/')));
  const held = await acquireRefLock(ctx, ref, lock, expected);
  const value = valuePath(lock, held.nonce);
  try {
    const actual = await readRefValue(ctx, ref).catch(asIo('read', path));
    if (actual !== expected) throw new RefConflictError(ref, 'moved', expected, actual);
    const written = writeExclusive(ctx, value, Buffer.from(`${next}\n`, 'latin1')).catch(asIo('write', value));
    // objects of open batches are stored before the ref moves (unless held)
    const stored = Promise.resolve()
      .then(before)
      .then(() => flushBeforeRefMove(ctx));
    const [other, own] = await Promise.allSettled([stored, written]);
    if (other.status === 'rejected') throw other.reason;
    if (own.status === 'rejected') throw own.reason;
    if (!(await stillHeld(ctx, held).catch(asIo('rename', value)))) throw new RefConflictError(ref, 'locked', expected, null);
    await renameFile(ctx, value, path).catch(asIo('rename', value));
  } catch (err) {
    await unlinkQuietly(ctx, value);
    await releaseLock(ctx, held);
    throw err;
  }
  await releaseLock(ctx, held);
}
