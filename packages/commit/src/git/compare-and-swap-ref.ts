import { GitError, GitIoError, ObjectNotFoundError, RefConflictError } from './errors.js';
import type { GitContext } from './git-context.js';
import { ensureDir, errnoOf, unlinkQuietly, writeExclusive } from './internal/fs-ops.js';
import { hasObjectInternal } from './internal/object-io.js';
import { assertOid } from './internal/oid.js';
import { flushPending } from './internal/pack-store.js';
import { assertRefName } from './internal/ref-name.js';
import { readRefValue } from './internal/ref-io.js';
import { removeOldLock } from './internal/remove-old-lock.js';
import { stateOf } from './internal/state.js';

/**
 * Points `ref` at `next` if and only if it now holds `expected` (null: the ref must not exist), with git's
 * lock-file protocol: create `<ref>.lock` exclusively, check the current value under the lock, write `next`,
 * fsync, rename the lock onto the ref. Any failure removes the lock and leaves the ref as it was. A lock older than
 * the context's `staleLockMs` (see {@link OpenGitCommonOptions.staleLockMs}) is a dead writer's: it is removed and
 * the lock taken once more.
 *
 * @param ctx - the repository
 * @param ref - the full name, `refs/...`
 * @param expected - the oid the ref must hold now, or null when it must not exist
 * @param next - the new oid; the object must exist
 * @throws {@link RefConflictError} (`E_GIT_REF_CONFLICT`) when another writer holds the lock or the ref moved;
 * {@link ObjectNotFoundError} when `next` is missing; {@link GitIoError} when the file system fails
 * @example
 * ```ts
 * const old = await readRef(ctx, 'refs/ctxgit/dag');
 * await compareAndSwapRef(ctx, 'refs/ctxgit/dag', old, commitOid);
 * ```
 */
export async function compareAndSwapRef(ctx: GitContext, ref: string, expected: string | null, next: string): Promise<void> {
  assertRefName(ref);
  if (expected !== null) assertOid('expected', expected);
  assertOid('next', next);
  await flushPending(ctx); // objects of open batches are stored before any ref moves
  if (!(await hasObjectInternal(ctx, next))) throw new ObjectNotFoundError(next);
  const path = `${ctx.gitdir}/${ref}`;
  const lock = `${path}.lock`;
  await ensureDir(ctx, path.slice(0, path.lastIndexOf('/')));
  const content = Buffer.from(`${next}\n`, 'latin1');
  try {
    await writeExclusive(ctx, lock, content);
  } catch (err) {
    if (errnoOf(err) !== 'EEXIST') {
      await unlinkQuietly(ctx, lock);
      throw new GitIoError('lock', lock, err);
    }
    if (!(await removeStaleLock(ctx, lock))) throw new RefConflictError(ref, 'locked', expected, null);
    try {
      await writeExclusive(ctx, lock, content);
    } catch (again) {
      if (errnoOf(again) === 'EEXIST') throw new RefConflictError(ref, 'locked', expected, null);
      await unlinkQuietly(ctx, lock);
      throw new GitIoError('lock', lock, again);
    }
  }
  try {
    const actual = await readRefValue(ctx, ref);
    if (actual !== expected) throw new RefConflictError(ref, 'moved', expected, actual);
    await ctx.fs.promises.rename(lock, path);
  } catch (err) {
    await unlinkQuietly(ctx, lock);
    if (err instanceof GitError) throw err;
    throw new GitIoError('rename', lock, err);
  }
}

/** Removes `lock` when it is older than the context's stale-lock age; true when it is gone. */
async function removeStaleLock(ctx: GitContext, lock: string): Promise<boolean> {
  const { staleLockMs } = stateOf(ctx);
  return staleLockMs !== Infinity && (await removeOldLock(ctx, lock, staleLockMs, Date.now())) !== 'young';
}
