import type { FsLike, FsPromisesLike } from './fs-like.js';
import { MemoryFiles } from './internal/memory-fs-files.js';
import { MemoryTree } from './internal/memory-fs-tree.js';

/**
 * A fresh in-memory file system, as a repository in memory uses: directories of maps, files of bytes, with POSIX's
 * meaning (linux's errors, `code`, `syscall` and `path` as node's fs gives them) for the calls of {@link FsLike}.
 * Absolute paths with `/` (`.`, `..` and repeated `/` resolved; a relative path starts at `/`). A file is an inode:
 * `link` gives it a second name, `rename` onto a name replaces that file in one step and does nothing when both names
 * are links of one file. A file's bytes are dropped with its last name and its last open descriptor (a file that
 * `rename` replaces included). Bytes are copied in and out: a caller never holds the stored ones. `readdir` lists
 * names sorted. Descriptors count down from 0x7fffffff, clear of the process's own.
 *
 * @param options `now`: the clock of the files' and directories' `mtimeMs`, in milliseconds since the epoch (default
 * `Date.now`)
 * @returns the file system, with `readFileSync` and the synchronous calls of small files (see {@link FsLike.openSync})
 * @example
 * ```ts
 * const ctx = await openGit({ memory: true, fs: await memoryFs() }); // what `{ memory: true }` alone does
 * ```
 */
export async function memoryFs(options: { readonly now?: () => number } = {}): Promise<FsLike> {
  const tree = new MemoryTree(options.now ?? Date.now);
  const files = new MemoryFiles(tree);
  const promises: FsPromisesLike = {
    readFile: async (path) => files.readFile(path),
    writeFile: async (path, data, opts) => files.writeFile(path, data, opts?.flag),
    open: async (path, flags) => files.handle(path, flags),
    rename: async (from, to) => tree.rename(from, to),
    unlink: async (path) => tree.unlink(path),
    mkdir: async (path, opts: { recursive?: boolean } = {}) => tree.mkdir(path, opts.recursive === true),
    readdir: async (path) => tree.readdir(path),
    stat: async (path) => tree.stat(path, 'stat'),
    lstat: async (path) => tree.stat(path, 'lstat'),
    rmdir: async (path) => tree.rmdir(path),
    link: async (existing, path) => tree.link(existing, path),
  };
  return {
    promises,
    readFileSync: (path) => files.readFile(path),
    openSync: (path, flags) => files.openSync(path, flags),
    readSync: (fd, buffer, offset, length, position) => files.readSync(fd, buffer, offset, length, position),
    writeSync: (fd, data) => files.writeSync(fd, data),
    closeSync: (fd) => files.closeSync(fd),
    fdatasync: (fd, callback) => files.fdatasync(fd, callback),
    linkSync: (existing, path) => tree.link(existing, path),
    renameSync: (from, to) => tree.rename(from, to),
    unlinkSync: (path) => tree.unlink(path),
  };
}
