import { CommitConflictError } from '../errors.js';
import { compareAndSwapRef } from '../git/compare-and-swap-ref.js';
import { RefConflictError } from '../git/errors.js';
import type { RepoCore } from './repo-core.js';

/** Compare-and-swap of one ref; a lost race becomes {@link CommitConflictError}. A ref already at `next` is left alone. */
export async function swapRef(core: RepoCore, session: string, ref: string, expected: string | null, next: string): Promise<void> {
  try {
    await compareAndSwapRef(core.git, ref, expected, next);
  } catch (err) {
    if (err instanceof RefConflictError && err.data['actual'] === next) return;
    if (err instanceof RefConflictError) throw new CommitConflictError(session, `ref ${ref}`, err);
    throw err;
  }
}
