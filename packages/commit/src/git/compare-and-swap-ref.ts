import { ObjectNotFoundError } from './errors.js';
import type { GitContext } from './git-context.js';
import { hasObjectInternal } from './internal/object-io.js';
import { assertOid } from './internal/oid.js';
import { assertRefName } from './internal/ref-name.js';
import { moveRef } from './internal/ref-move.js';

/**
 * Points `ref` at `next` if and only if it now holds `expected` (null: the ref must not exist), under `<ref>.lock`:
 * create the lock exclusively with its owner's record (host, pid, a random nonce), check the current value under the
 * lock, write `next` to a file of its own (fsync; an open batch's objects are written meanwhile), check that the lock
 * is still this writer's, rename the value onto the ref, remove the lock. A writer never removes or overwrites a lock
 * it does not own: a lock whose owner is a dead process of this host is taken over at once (and one of another host,
 * or of git, once older than the context's `staleLockMs`), by an atomic move that is checked afterwards; see
 * docs/reliability.md.
 *
 * @param ctx - the repository
 * @param ref - the full name, `refs/...`
 * @param expected - the oid the ref must hold now, or null when it must not exist
 * @param next - the new oid; the object must exist
 * @throws {@link RefConflictError} (`E_GIT_REF_CONFLICT`, retryable) when a live writer holds the lock (reason
 * `locked`, `data.holder` names it) or the ref moved (reason `moved`); {@link ObjectNotFoundError} when `next` is
 * missing; {@link GitIoError} when the file system fails
 * @example
 * ```ts
 * const old = await readRef(ctx, 'refs/ctxgit/sessions/chat-42/dag');
 * await compareAndSwapRef(ctx, 'refs/ctxgit/sessions/chat-42/dag', old, commitOid);
 * ```
 */
export async function compareAndSwapRef(ctx: GitContext, ref: string, expected: string | null, next: string): Promise<void> {
  assertRefName(ref);
  if (expected !== null) assertOid('expected', expected);
  assertOid('next', next);
  // an object of an open batch counts: the move stores the batch before the rename
  if (!(await hasObjectInternal(ctx, next))) throw new ObjectNotFoundError(next);
  await moveRef(ctx, ref, expected, next);
}
