import { GitIoError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { errnoOf } from './fs-ops.js';

/** Removes the lock file at `path` when its mtime is at least `olderThanMs` before `now`; `gone`: it had vanished already. */
export async function removeOldLock(ctx: GitContext, path: string, olderThanMs: number, now: number): Promise<'removed' | 'young' | 'gone'> {
  try {
    const stat = await ctx.fs.promises.stat(path);
    if (now - Number(stat.mtimeMs) < olderThanMs) return 'young';
    await ctx.fs.promises.unlink(path);
    return 'removed';
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return 'gone';
    throw new GitIoError('unlink', path, err);
  }
}
