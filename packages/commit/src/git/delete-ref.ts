import { GitArgumentError, GitError, GitIoError, RefConflictError } from './errors.js';
import type { GitContext } from './git-context.js';
import { unlinkFile } from './internal/fs-ops.js';
import { assertOid } from './internal/oid.js';
import { assertRefName } from './internal/ref-name.js';
import { readPackedRefs, readRefValue } from './internal/ref-io.js';
import { acquireRefLock, releaseLock } from './internal/ref-lock.js';

/**
 * Removes `ref` if and only if it now holds `expected`, under the ref's lock (the protocol of
 * `compareAndSwapRef`: the lock names its owner, a dead writer's lock is taken over, a live writer's never
 * touched): the value checked under the lock, the loose file removed, the lock released.
 *
 * @param ctx - the repository
 * @param ref - the full name, `refs/...`
 * @param expected - the oid the ref must hold now
 * @throws {@link RefConflictError} (`E_GIT_REF_CONFLICT`, retryable) when a live writer holds the lock or the ref moved;
 * {@link GitArgumentError} when the ref is also in `packed-refs` (run `git pack-refs` tooling instead); {@link GitIoError}
 * @example
 * ```ts
 * await deleteRef(ctx, 'refs/ctxgit-sync/work', await readRef(ctx, 'refs/ctxgit-sync/work'));
 * ```
 */
export async function deleteRef(ctx: GitContext, ref: string, expected: string): Promise<void> {
  assertRefName(ref);
  assertOid('expected', expected);
  const path = `${ctx.gitdir}/${ref}`;
  const held = await acquireRefLock(ctx, ref, `${path}.lock`, expected);
  try {
    const actual = await readRefValue(ctx, ref);
    if (actual !== expected) throw new RefConflictError(ref, 'moved', expected, actual);
    if ((await readPackedRefs(ctx)).has(ref)) throw new GitArgumentError('ref', `${ref} is in packed-refs; only loose refs are deleted`);
    await unlinkFile(ctx, path);
  } catch (err) {
    if (err instanceof GitError) throw err;
    throw new GitIoError('unlink', path, err);
  } finally {
    await releaseLock(ctx, held);
  }
}
