import { randomUUID } from 'node:crypto';
import { deleteRef } from '../../git/delete-ref.js';
import { GitIoError, RefConflictError } from '../../git/errors.js';
import type { GitContext } from '../../git/git-context.js';
import { tempFileOwner, tempOwnerTag } from '../../git/internal/lock-record.js';
import { stateOf } from '../../git/internal/state.js';
import { errnoOf, isNotFound, unlinkQuietly } from '../../git/internal/fs-ops.js';
import { readRef } from '../../git/read-ref.js';
import { sessionRefComponent, SYNC_WORK_PREFIX } from '../../store/refs.js';

/** Where sync builds a rebased DAG before the session's DAG ref moves to it (never pushed: outside `refs/ctxgit/`). */
export { SYNC_WORK_PREFIX } from '../../store/refs.js';

/**
 * A fresh work ref for one rebase of `session`: `refs/ctxgit-sync/<session>/<host hash>-<pid>_<uuid>`, so that a
 * sweep can tell the work refs of dead processes of this host from those of live ones.
 */
export function newWorkRef(ctx: GitContext, session: string): string {
  return `${SYNC_WORK_PREFIX}${sessionRefComponent(session)}/${tempOwnerTag(stateOf(ctx).identity)}_${randomUUID()}`;
}

/** Removes a work ref if it is still there (a sweep may have taken it; nothing depends on it once the rebase ended). */
export async function dropWorkRef(ctx: GitContext, ref: string): Promise<void> {
  const at = await readRef(ctx, ref);
  if (at === null) return;
  try {
    await deleteRef(ctx, ref, at);
  } catch (err) {
    if (!(err instanceof RefConflictError)) throw err;
  }
}

async function namesIn(ctx: GitContext, dir: string): Promise<string[]> {
  try {
    return (await ctx.fs.promises.readdir(dir)).map(String);
  } catch (err) {
    if (isNotFound(err) || errnoOf(err) === 'ENOTDIR') return [];
    throw new GitIoError('readdir', dir, err);
  }
}

/**
 * Removes the work refs that processes of this host left when they died in the middle of a sync, with the lock files
 * beside them. A session's DAG ref moves to a rebase only once it is complete (one compare-and-swap from the local
 * tip), so a work ref holds nothing the session needs: the DAG ref kept the local tip, and the next sync rebases
 * again. A work ref's name carries its process and a fresh uuid, so no other writer ever touches it: the files of a
 * dead one are unlinked as they are. Work refs of live processes, and of other hosts, are left alone.
 *
 * @returns the refs removed, sorted
 */
export async function sweepWorkRefs(ctx: GitContext): Promise<readonly string[]> {
  const identity = stateOf(ctx).identity;
  const root = `${ctx.gitdir}/${SYNC_WORK_PREFIX.slice(0, -1)}`;
  const removed = new Set<string>();
  for (const session of await namesIn(ctx, root)) {
    const dir = `${root}/${session}`;
    for (const name of await namesIn(ctx, dir)) {
      const owner = /^[0-9a-f]{8}-[0-9]+_[0-9a-f-]{36}/u.exec(name)?.[0];
      if (owner === undefined || tempFileOwner(identity, `tmp_obj_${owner}`) !== 'dead') continue;
      await unlinkQuietly(ctx, `${dir}/${name}`);
      removed.add(`${SYNC_WORK_PREFIX}${session}/${owner}`);
    }
  }
  return [...removed].sort();
}
