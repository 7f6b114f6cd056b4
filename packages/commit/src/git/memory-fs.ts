import type { FsLike, FsPromisesLike, FsStatsLike } from './fs-like.js';

/**
 * A fresh in-memory file system (a memfs volume), as a repository in memory uses. Its `rename` onto an existing file
 * first unlinks that file, in the same synchronous step (no reader sees the name missing): memfs 4's rename keeps the
 * file it replaces in the volume for good, so every ref a turn moves left one behind (~2 KB a turn: an import of 3,000
 * turns held 6 MB more, 100 MB more at its peak at 10,000). A memfs volume given as `fs` keeps that leak.
 *
 * @returns the file system, with `readFileSync` and the synchronous calls of small files (see {@link FsLike.openSync})
 * @example
 * ```ts
 * const ctx = await openGit({ memory: true, fs: await memoryFs() }); // what `{ memory: true }` alone does
 * ```
 */
export async function memoryFs(): Promise<FsLike> {
  // memfs is imported only for a file system in memory: a process on disk never loads it
  const { Volume, createFsFromVolume } = await import('memfs');
  const fs = createFsFromVolume(new Volume());
  const statOrNull = (path: string): (FsStatsLike & { readonly ino: number | bigint }) | null => {
    try {
      return fs.lstatSync(path);
    } catch {
      return null;
    }
  };
  const renameSync = (from: string, to: string): void => {
    const target = statOrNull(to);
    if (target !== null && !target.isDirectory()) {
      // the same file under both names: rename does nothing (POSIX)
      if (fs.lstatSync(from).ino === target.ino) return;
      fs.unlinkSync(to);
    }
    fs.renameSync(from, to);
  };
  const rename = async (from: string, to: string): Promise<void> => renameSync(from, to);
  const promises = new Proxy(fs.promises, { get: (target, key) => (key === 'rename' ? rename : Reflect.get(target, key)) }) as unknown as FsPromisesLike;
  return {
    promises,
    readFileSync: (path) => fs.readFileSync(path) as Uint8Array | string,
    openSync: (path, flags) => fs.openSync(path, flags),
    readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
    writeSync: (fd, data) => fs.writeSync(fd, data),
    closeSync: (fd) => fs.closeSync(fd),
    fdatasync: (fd, callback) => fs.fdatasync(fd, callback),
    linkSync: (existing, path) => fs.linkSync(existing, path),
    renameSync,
    unlinkSync: (path) => fs.unlinkSync(path),
  };
}
