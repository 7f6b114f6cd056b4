import { GitIoError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import type { GitState, PackReadHandle } from './state.js';
import { stateOf } from './state.js';

/** A file of `objects/pack` open for one read, and what to do once the read is done. */
export interface PackFileUse {
  readonly handle: PackReadHandle;
  done(): Promise<void>;
}

/** The file open for reading: read in synchronous calls where the fs has them (see FsLike.readSync). */
async function openForRead(ctx: GitContext, path: string): Promise<PackReadHandle> {
  const { openSync, readSync, closeSync } = ctx.fs;
  try {
    if (openSync === undefined || readSync === undefined || closeSync === undefined) return await ctx.fs.promises.open(path, 'r');
    const fd = openSync.call(ctx.fs, path, 'r');
    return {
      read: async (buffer, offset, length, position) => ({ bytesRead: readSync.call(ctx.fs, fd, buffer, offset, length, position) }),
      close: async () => closeSync.call(ctx.fs, fd),
    };
  } catch (err) {
    throw new GitIoError('read', path, err);
  }
}

/** The directory of the repository's packs and their indexes. */
export const packDir = (ctx: GitContext): string => `${ctx.gitdir}/objects/pack`;

/** The error of a read of `file` (a pack or an index of `objects/pack`) that is gone: errno ENOENT, as the fs gives it. */
export function goneError(ctx: GitContext, file: string): GitIoError {
  return new GitIoError('read', `${packDir(ctx)}/${file}`, Object.assign(new Error(`the ${file.endsWith('.idx') ? 'index' : 'pack'} is gone`), { code: 'ENOENT' }));
}

/** Whether `err` says a file of `objects/pack` is gone (another process rolled its pack up: a newer pack holds its objects). */
export const isGone = (err: unknown): boolean => err instanceof GitIoError && err.data['errno'] === 'ENOENT';

const sharing = (state: GitState): boolean => state.batchDepth > 0 || state.packReads > 0;

/**
 * The file `file` of `objects/pack` (a pack or its index) for a read at a position: the handle of that file shared by
 * the reads of the open batches and object reads (opened by the first, closed by {@link closePackFiles} once none is
 * open, or by its last user after that).
 */
export async function usePackFile(ctx: GitContext, file: string): Promise<PackFileUse> {
  const state = stateOf(ctx);
  let shared = state.packFiles.get(file);
  if (shared === undefined) {
    shared = { handle: openForRead(ctx, `${packDir(ctx)}/${file}`), users: 0 };
    state.packFiles.set(file, shared);
  }
  const used = shared;
  used.users++;
  let handle: PackReadHandle;
  try {
    handle = await used.handle;
  } catch (err) {
    used.users--;
    if (state.packFiles.get(file) === used) state.packFiles.delete(file);
    throw err;
  }
  return {
    handle,
    done: async () => {
      used.users--;
      if (used.users === 0 && !sharing(state) && state.packFiles.get(file) === used) {
        state.packFiles.delete(file);
        await handle.close().catch(() => undefined);
      }
    },
  };
}

/** Closes the pack files reads opened once no batch and no object read is open (a file in use closes after its last read). */
export async function closePackFiles(ctx: GitContext): Promise<void> {
  const state = stateOf(ctx);
  if (sharing(state)) return;
  for (const [name, file] of [...state.packFiles]) {
    if (file.users > 0) continue;
    state.packFiles.delete(name);
    const handle = await file.handle.catch(() => undefined);
    await handle?.close().catch(() => undefined);
  }
}
