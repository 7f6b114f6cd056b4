import { GitArgumentError } from './errors.js';
import type { GitContext } from './git-context.js';
import { removeOldLock } from './internal/remove-old-lock.js';
import { walkRefFiles } from './internal/walk-refs.js';

/** Options of {@link recoverStaleLocks}. */
export interface RecoverStaleLocksOptions {
  /** Only locks last modified at least this long ago are removed, in milliseconds. @defaultValue 600000 (10 minutes) */
  readonly olderThanMs?: number;
  /** The current time in milliseconds since the epoch. @defaultValue `Date.now()` */
  readonly now?: number;
}

/**
 * Removes `<ref>.lock` files under `refs/` that a crashed writer left behind, so that writers stop getting
 * {@link RefConflictError} with reason `'locked'`. A lock never changes its ref, so removing one loses no
 * acknowledged write; but a live writer stalled for longer than `olderThanMs` would lose its update, so call this
 * at start-up, or when a lock has outlived any plausible writer.
 *
 * @param ctx - the repository
 * @param opts - age threshold and clock
 * @returns the names of the refs whose lock was removed
 * @example
 * ```ts
 * const freed = await recoverStaleLocks(ctx, { olderThanMs: 0 }); // at start-up, no other process running
 * ```
 */
export async function recoverStaleLocks(ctx: GitContext, opts: RecoverStaleLocksOptions = {}): Promise<readonly string[]> {
  const olderThanMs = opts.olderThanMs ?? 600_000;
  const now = opts.now ?? Date.now();
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) throw new GitArgumentError('opts.olderThanMs', 'expected milliseconds >= 0');
  if (!Number.isFinite(now)) throw new GitArgumentError('opts.now', 'expected milliseconds since the epoch');
  const removed: string[] = [];
  for (const file of await walkRefFiles(ctx, 'refs')) {
    if (!file.endsWith('.lock')) continue;
    if ((await removeOldLock(ctx, `${ctx.gitdir}/${file}`, olderThanMs, now)) === 'removed') removed.push(file.slice(0, -'.lock'.length));
  }
  return removed;
}
