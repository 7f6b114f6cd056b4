import type { GitContext } from './git-context.js';
import { sweepOptions } from './internal/sweep-options.js';
import { lockPathsOf, sweepLeftovers, sweepLock } from './internal/ref-lock.js';
import { walkRefFiles } from './internal/walk-refs.js';

/** Options of {@link recoverStaleLocks}. */
export interface RecoverStaleLocksOptions {
  /**
   * A lock that names no owner of this host (written by another host, by git, or by an older ctxgit) is removed once
   * last modified at least this long ago, in milliseconds. A lock whose owner is a dead process of this host is
   * removed whatever its age; one of a live process of this host never is. @defaultValue 600000 (10 minutes)
   */
  readonly olderThanMs?: number;
  /** The current time in milliseconds since the epoch. @defaultValue `Date.now()` */
  readonly now?: number;
}

/**
 * Removes the `<ref>.lock` files under `refs/` that dead writers left behind (and the takeover and value files of
 * the lock protocol they left beside them), so that writers stop getting {@link RefConflictError} with reason
 * `'locked'`. A lock never changes its ref, and a lock is removed only when its owner is a dead process of this host
 * or it names no owner of this host and is older than `olderThanMs`, by the same checked takeover writers use; so
 * nothing a live writer of this host needs is ever removed. Writers already take over a dead writer's lock by
 * themselves; call this at start-up or from a repair command to tidy up.
 *
 * @param ctx - the repository
 * @param opts - age threshold for locks of other hosts or programs, and clock
 * @returns the names of the refs whose lock was removed
 * @example
 * ```ts
 * const freed = await recoverStaleLocks(ctx); // dead writers' locks of this host, and others older than 10 minutes
 * ```
 */
export async function recoverStaleLocks(ctx: GitContext, opts: RecoverStaleLocksOptions = {}): Promise<readonly string[]> {
  const { olderThanMs, now } = sweepOptions(opts);
  const byDir = new Map<string, string[]>();
  for (const file of await walkRefFiles(ctx, 'refs')) {
    const slash = file.lastIndexOf('/');
    const dir = `${ctx.gitdir}/${file.slice(0, slash)}`;
    byDir.set(dir, [...(byDir.get(dir) ?? []), file.slice(slash + 1)]);
  }
  const removed: string[] = [];
  for (const [dir, names] of byDir) {
    for (const lock of lockPathsOf(dir, names)) {
      if (names.includes(lock.slice(dir.length + 1)) && (await sweepLock(ctx, lock, olderThanMs, now)) === 'removed') removed.push(lock.slice(ctx.gitdir.length + 1, -'.lock'.length));
      await sweepLeftovers(ctx, lock, names, olderThanMs, now);
    }
  }
  return removed.sort();
}
