import { CommitConflictError } from '../../errors.js';
import { compareAndSwapRef } from '../../git/compare-and-swap-ref.js';
import { deleteRef } from '../../git/delete-ref.js';
import { RefConflictError } from '../../git/errors.js';
import type { GitContext } from '../../git/git-context.js';
import { readRef } from '../../git/read-ref.js';

/** Moves (or with `next` null removes) a local ref by compare-and-swap; a lost race is a retryable {@link CommitConflictError}. */
export async function moveRef(ctx: GitContext, session: string, ref: string, expected: string | null, next: string | null): Promise<void> {
  if (expected === next) return;
  try {
    if (next !== null) await compareAndSwapRef(ctx, ref, expected, next);
    else if (expected !== null) await deleteRef(ctx, ref, expected);
  } catch (err) {
    if (err instanceof RefConflictError) throw new CommitConflictError(session, `ref ${ref} (moved by another writer during a transfer)`, err);
    throw err;
  }
}

/** Sets a tracking ref (the last value seen on the remote): advisory, the newest writer wins. */
export async function setTracking(ctx: GitContext, ref: string, next: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await readRef(ctx, ref);
    if (before === next) return;
    try {
      await compareAndSwapRef(ctx, ref, before, next);
      return;
    } catch (err) {
      if (!(err instanceof RefConflictError)) throw err;
    }
  }
}
