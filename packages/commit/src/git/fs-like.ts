/** The subset of a `stat` result the git layer reads. */
export interface FsStatsLike {
  isFile(): boolean;
  isDirectory(): boolean;
  /** Modification time in milliseconds since the epoch. */
  readonly mtimeMs: number | bigint;
}

/** An open file as returned by {@link FsPromisesLike.open}. */
export interface FsFileHandleLike {
  writeFile(data: Uint8Array): Promise<void>;
  /**
   * Reads `length` bytes at `position` into `buffer` from `offset` (node's `FileHandle.read`). Optional: without it a
   * pack is read whole the first time one of its objects is read, instead of the object's bytes alone.
   */
  read?(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  /** Flushes the file's data to stable storage (fdatasync). */
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The promise API the git layer calls. `node:fs`'s `promises` and memfs's `fs.promises` both fit;
 * a fault-injecting wrapper only has to implement these methods.
 */
export interface FsPromisesLike {
  readFile(path: string): Promise<Uint8Array | string>;
  writeFile(path: string, data: Uint8Array | string, options?: { flag?: string }): Promise<void>;
  /** Only the flags `'wx'` (create exclusively) are used. */
  open(path: string, flags: string): Promise<FsFileHandleLike>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  readdir(path: string): Promise<unknown[]>;
  stat(path: string): Promise<FsStatsLike>;
  lstat(path: string): Promise<FsStatsLike>;
  rmdir(path: string): Promise<void>;
  /**
   * Makes `newPath` a hard link to `existingPath`, failing with EEXIST when `newPath` exists. Optional: with it a
   * ref lock appears with its owner already written in it (a lock is never seen empty); without it the lock is
   * created with `open(path, 'wx')` and then written, and a writer killed in between leaves an empty lock that is
   * taken over only once older than `staleLockMs`. `node:fs` and memfs have it.
   */
  link?(existingPath: string, newPath: string): Promise<void>;
}

/**
 * A file system as the git layer takes it: an object with a `promises` member, e.g. `node:fs` or
 * `createFsFromVolume(new Volume())` of memfs.
 */
export interface FsLike {
  readonly promises: FsPromisesLike;
  /**
   * Reads a whole file at once (`node:fs`'s `readFileSync`). Optional: with it the refs, their locks and
   * `packed-refs`, files of a few dozen bytes read several times a turn, are read in one call instead of the four
   * round trips of `promises.readFile` (a 100-turn session's turn on disk: 13.7 ms against 14.8); without it (a
   * wrapper that implements `promises` alone) they are read through `promises`. `node:fs` and memfs have it.
   */
  readonly readFileSync?: (path: string) => Uint8Array | string;
  /**
   * Synchronous forms of the calls made on small files: a ref's lock created, linked and unlinked, its new value
   * written and renamed onto it, a pack of up to 256 KiB written and renamed (`node:fs`'s functions of these names).
   * Optional, each on its own: the git layer makes a call synchronously where the fs has its synchronous form, and
   * through `promises` otherwise; a flush to stable storage never blocks (see {@link FsLike.fdatasync}). A
   * thread-pool round trip costs more than such a call: a 100-turn session's turn on disk went from 6.4 to 4.9 ms
   * median with fsync on, 5.3 to 3.1 with fsync off (bench/src/turn-profile.ts). `node:fs` and memfs have them;
   * leave them out where a file call can block for long (a network mount).
   */
  readonly openSync?: (path: string, flags: string) => number;
  /**
   * See {@link FsLike.openSync}: reads `length` bytes at `position` into `buffer` from `offset`, returns the bytes
   * read. With it (and `openSync`, `closeSync`) a pack is read at a position synchronously: an object read from a
   * large pack (a long session's trees, a cold start's items) no longer waits on three round trips (open, read,
   * close): a turn of a 10,000-turn session on disk went from 5.5 to 4.7 ms median. The blocks read are kept in
   * memory as before; a read of a pack outside the page cache blocks for as long as the disk takes.
   */
  readonly readSync?: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => number;
  /** See {@link FsLike.openSync}: writes `data` at the file's position, returns the bytes written. */
  readonly writeSync?: (fd: number, data: Uint8Array) => number;
  /** See {@link FsLike.openSync}. */
  readonly closeSync?: (fd: number) => void;
  /**
   * Flushes an open file's data to stable storage, in the background (`node:fs`'s callback `fdatasync`). Optional:
   * with it and the synchronous calls above, a file written with fsync on is opened, written and closed
   * synchronously and only waits on the flush; without it, it is written through `promises`.
   */
  readonly fdatasync?: (fd: number, callback: (err?: Error | null) => void) => void;
  /** See {@link FsLike.openSync}: fails with EEXIST when `newPath` exists. */
  readonly linkSync?: (existingPath: string, newPath: string) => void;
  /** See {@link FsLike.openSync}. */
  readonly renameSync?: (from: string, to: string) => void;
  /** See {@link FsLike.openSync}. */
  readonly unlinkSync?: (path: string) => void;
}
