import { GitError, GitIoError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { tempOwnerTag } from './lock-record.js';
import { stateOf } from './state.js';

export function errnoOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

export function isNotFound(err: unknown): boolean {
  const code = errnoOf(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Runs an fs call, turning any non-git error into a GitIoError. */
export async function io<T>(op: string, path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof GitError) throw err;
    throw new GitIoError(op, path, err);
  }
}

export function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** What `read` returns as bytes, or null when the file (or a directory on its path) does not exist. */
async function bytesOrNull(path: string, read: () => Promise<Uint8Array | string> | Uint8Array | string): Promise<Uint8Array | null> {
  try {
    return toBytes(await read());
  } catch (err) {
    if (isNotFound(err) || errnoOf(err) === 'EISDIR') return null;
    throw new GitIoError('read', path, err);
  }
}

/** The file's bytes, or null when it (or a directory on its path) does not exist. */
export async function readFileOrNull(ctx: GitContext, path: string): Promise<Uint8Array | null> {
  return bytesOrNull(path, () => ctx.fs.promises.readFile(path));
}

/** {@link readFileOrNull} for a ref-sized file (a ref, a lock, `packed-refs`): one synchronous read when the fs has it. */
export async function readSmallFileOrNull(ctx: GitContext, path: string): Promise<Uint8Array | null> {
  const sync = ctx.fs.readFileSync;
  return bytesOrNull(path, sync === undefined ? () => ctx.fs.promises.readFile(path) : () => sync.call(ctx.fs, path));
}

export async function pathExists(ctx: GitContext, path: string): Promise<boolean> {
  try {
    await ctx.fs.promises.stat(path);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw new GitIoError('stat', path, err);
  }
}

/** Makes `dir` once per repository context: concurrent callers share one mkdir (a failed one is tried again later). */
export function ensureDir(ctx: GitContext, dir: string): Promise<void> {
  const { dirs } = stateOf(ctx);
  const made = dirs.get(dir);
  if (made !== undefined) return made;
  const making = io('mkdir', dir, async () => {
    await ctx.fs.promises.mkdir(dir, { recursive: true });
  });
  dirs.set(dir, making);
  making.catch(() => dirs.delete(dir));
  return making;
}

/** Removes `path`: synchronously where the fs can (see FsLike.openSync). */
export async function unlinkFile(ctx: GitContext, path: string): Promise<void> {
  const fs = ctx.fs;
  if (fs.unlinkSync === undefined) return fs.promises.unlink(path);
  fs.unlinkSync(path);
}

/** Renames `from` onto `to`: synchronously where the fs can. */
export async function renameFile(ctx: GitContext, from: string, to: string): Promise<void> {
  const fs = ctx.fs;
  if (fs.renameSync === undefined) return fs.promises.rename(from, to);
  fs.renameSync(from, to);
}

/** Makes `path` a hard link to `existing` (EEXIST when `path` exists): synchronously where the fs can. The fs has `promises.link`. */
export async function linkFile(ctx: GitContext, existing: string, path: string): Promise<void> {
  const fs = ctx.fs;
  if (fs.linkSync === undefined) return (fs.promises.link as NonNullable<typeof fs.promises.link>)(existing, path);
  fs.linkSync(existing, path);
}

export async function unlinkQuietly(ctx: GitContext, path: string): Promise<void> {
  try {
    await unlinkFile(ctx, path);
  } catch {
    // best effort: the caller is already reporting the original failure
  }
}

/** Files up to this size are written in synchronous calls where the fs has them (a ref, a turn's pack); a larger one (a roll-up's pack) would hold the event loop. */
const SYNC_WRITE_BYTES = 256 * 1024;

/**
 * Creates `path` exclusively (`wx`), writes `data`, fsyncs when `sync` (default: when the repository asks for it), closes. When the create
 * fails (EEXIST included) nothing was created; when a later step fails, the file this call created is removed (it is
 * this caller's, so no one else's file is ever unlinked).
 */
export async function writeExclusive(ctx: GitContext, path: string, data: Uint8Array, sync = stateOf(ctx).fsync): Promise<void> {
  const { openSync, writeSync, closeSync, fdatasync } = ctx.fs;
  if (data.length <= SYNC_WRITE_BYTES && openSync !== undefined && writeSync !== undefined && closeSync !== undefined && (!sync || fdatasync !== undefined)) {
    // the same steps in synchronous calls, the flush in the background (see FsLike.openSync)
    const fd = openSync.call(ctx.fs, path, 'wx');
    try {
      try {
        for (let at = 0; at < data.length; ) at += writeSync.call(ctx.fs, fd, at === 0 ? data : data.subarray(at));
        if (sync) await new Promise<void>((done, fail) => (fdatasync as NonNullable<typeof fdatasync>).call(ctx.fs, fd, (err) => (err === null || err === undefined ? done() : fail(err))));
      } finally {
        closeSync.call(ctx.fs, fd);
      }
    } catch (err) {
      await unlinkQuietly(ctx, path);
      throw err;
    }
    return;
  }
  const handle = await ctx.fs.promises.open(path, 'wx');
  try {
    try {
      await handle.writeFile(data);
      if (sync) await handle.datasync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await unlinkQuietly(ctx, path);
    throw err;
  }
}

/** Writes `data` to `dir/tmp_<suffix>` and renames it onto `target`, so a reader never sees a partial file. */
export async function writeFileAtomic(ctx: GitContext, dir: string, target: string, data: Uint8Array): Promise<void> {
  await writeFilesAtomic(ctx, dir, [{ target, data }]);
}

/**
 * Writes each file to a temporary file of `dir`, all at once (their fsyncs overlap), then renames them onto their
 * targets in the order given, so a reader never sees a partial file and sees a file only once every file before it
 * is in place. On a failure the temporary files are removed; the files renamed already stay.
 */
export async function writeFilesAtomic(ctx: GitContext, dir: string, files: readonly { readonly target: string; readonly data: Uint8Array }[]): Promise<void> {
  await ensureDir(ctx, dir);
  const state = stateOf(ctx);
  const temps = files.map(() => `${dir}/tmp_obj_${tempOwnerTag(state.identity)}_${state.tempSuffix()}`);
  const written = await Promise.allSettled(files.map((f, i) => writeExclusive(ctx, temps[i] as string, f.data)));
  const failed = written.findIndex((w) => w.status === 'rejected');
  if (failed >= 0) {
    for (const temp of temps) await unlinkQuietly(ctx, temp);
    throw new GitIoError('write', (files[failed] as { target: string }).target, (written[failed] as PromiseRejectedResult).reason);
  }
  for (const [i, f] of files.entries()) {
    const temp = temps[i] as string;
    try {
      await renameFile(ctx, temp, f.target);
    } catch (err) {
      // some file systems refuse to rename onto an existing file: an object of that name is the same object
      if (!(await pathExists(ctx, f.target))) {
        for (const t of temps.slice(i)) await unlinkQuietly(ctx, t);
        throw new GitIoError('rename', f.target, err);
      }
      await unlinkQuietly(ctx, temp);
    }
  }
}
