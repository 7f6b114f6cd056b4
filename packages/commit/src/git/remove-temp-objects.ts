import type { GitContext } from './git-context.js';
import { sweepOptions } from './internal/sweep-options.js';
import { errnoOf, io, unlinkQuietly } from './internal/fs-ops.js';
import { tempFileOwner } from './internal/lock-record.js';
import { stateOf } from './internal/state.js';

/** Options of {@link removeTempObjects}. */
export interface RemoveTempObjectsOptions {
  /**
   * A temporary file that names no process of this host (another host's, or an older ctxgit's) is removed once last
   * modified at least this long ago, in milliseconds; one of a dead process of this host whatever its age; one of a
   * live process never. @defaultValue 600000 (10 minutes)
   */
  readonly olderThanMs?: number;
  /** The current time in milliseconds since the epoch. @defaultValue `Date.now()` */
  readonly now?: number;
}

async function names(ctx: GitContext, dir: string): Promise<string[]> {
  try {
    return (await ctx.fs.promises.readdir(dir)).map(String).sort();
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return [];
    return io('readdir', dir, () => Promise.reject(err));
  }
}

/**
 * Removes the temporary object and pack files (`objects/xx/tmp_obj_<host>-<pid>_…`, `objects/pack/tmp_obj_…`) that
 * writers killed between writing an object or pack and renaming it into place left behind. They are invisible to git and to every reader; a file is removed
 * only when the process that wrote it is dead (a pid of this host that no longer runs), or when it names no process
 * of this host and is older than `olderThanMs`, so an object a live writer is about to rename is never removed.
 *
 * @param ctx - the repository
 * @param opts - age threshold for files of other hosts, and clock
 * @returns the removed files, relative to the git directory
 * @example
 * ```ts
 * const removed = await removeTempObjects(ctx);
 * ```
 */
export async function removeTempObjects(ctx: GitContext, opts: RemoveTempObjectsOptions = {}): Promise<readonly string[]> {
  const { olderThanMs, now } = sweepOptions(opts);
  const { identity } = stateOf(ctx);
  const removed: string[] = [];
  for (const shard of await names(ctx, `${ctx.gitdir}/objects`)) {
    if (!/^(?:[0-9a-f]{2}|pack)$/u.test(shard)) continue;
    for (const name of await names(ctx, `${ctx.gitdir}/objects/${shard}`)) {
      if (!name.startsWith('tmp_')) continue;
      const path = `${ctx.gitdir}/objects/${shard}/${name}`;
      const owner = tempFileOwner(identity, name);
      let dead = owner === 'dead';
      if (owner === 'unknown') {
        try {
          dead = now - Number((await ctx.fs.promises.stat(path)).mtimeMs) >= olderThanMs;
        } catch {
          continue; // gone meanwhile
        }
      }
      if (!dead) continue;
      await unlinkQuietly(ctx, path);
      removed.push(`objects/${shard}/${name}`);
    }
  }
  return removed;
}
