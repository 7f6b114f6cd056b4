import { CommitConflictError } from '../errors.js';
import { compareAndSwapRef } from '../git/compare-and-swap-ref.js';
import { RefConflictError } from '../git/errors.js';
import { moveRef } from '../git/internal/ref-move.js';
import type { RepoCore } from './repo-core.js';

/** Compare-and-swap of one ref; a lost race becomes {@link CommitConflictError}. A ref already at `next` is left alone. */
export async function swapRef(core: RepoCore, session: string, ref: string, expected: string | null, next: string): Promise<void> {
  try {
    await compareAndSwapRef(core.git, ref, expected, next);
  } catch (err) {
    rethrowUnlessThere(session, ref, next, err);
  }
}

/**
 * {@link swapRef} after `first` (a write that must land before this ref moves): the ref's lock is taken and checked,
 * then its value written while `first` runs, so the two writes' fsyncs overlap, and the rename waits for `first`. A
 * lost race on this ref throws before `first` starts (a ref already at `next` only runs `first`); `first`'s errors
 * pass through, and the ref is then left as it was.
 */
export async function swapRefAfter(core: RepoCore, session: string, ref: string, expected: string | null, next: string, first: () => Promise<void>): Promise<void> {
  let phase = 'lock' as 'lock' | 'first' | 'move';
  try {
    await moveRef(core.git, ref, expected, next, async () => {
      phase = 'first';
      await first();
      phase = 'move';
    });
  } catch (err) {
    if (phase === 'first') throw err;
    if (phase === 'lock' && err instanceof RefConflictError && err.data['actual'] === next) return first();
    rethrowUnlessThere(session, ref, next, err);
  }
}

/** A failed move of `ref` to `next`: nothing when the ref is at `next` already, a lost race as {@link CommitConflictError}. */
function rethrowUnlessThere(session: string, ref: string, next: string, err: unknown): void {
  if (err instanceof RefConflictError && err.data['actual'] === next) return;
  if (err instanceof RefConflictError) throw new CommitConflictError(session, `ref ${ref}`, err);
  throw err;
}
