import type { FsFileHandleLike, FsLike, FsPromisesLike } from '../../src/index.js';

/** The kinds of fs operation a fault can hit. `write` covers `writeFile` and a handle's write; `fsync` a handle's datasync. */
export type FaultOp = 'write' | 'rename' | 'mkdir' | 'fsync' | 'read' | 'open' | 'unlink' | 'stat' | 'readdir';

export const FAULT_OPS: readonly FaultOp[] = ['write', 'rename', 'mkdir', 'fsync', 'read', 'open', 'unlink', 'stat', 'readdir'];

/**
 * What happens at the faulted operation: an errno (the disk said no, once; the process goes on), a `crash` (the
 * operation never happens and every later call fails: the process died there), or `torn` (a crash in the middle of a
 * write: the first half of the bytes reach the file).
 */
export type FaultMode = 'ENOSPC' | 'EIO' | 'EACCES' | 'crash' | 'torn';

export const ERRNOS: readonly FaultMode[] = ['ENOSPC', 'EIO', 'EACCES'];

const ERRNO_NUMBERS: Record<string, number> = { ENOSPC: -28, EIO: -5, EACCES: -13 };

/** What a dead process's calls would see, if it could see anything. */
export class ProcessCrashed extends Error {
  readonly code = 'ECRASHED';
}

/** One operation as the wrapper saw it. */
export interface SeenOp {
  readonly op: FaultOp;
  readonly index: number;
  readonly path: string;
}

/**
 * Wraps an fs (node's or memfs) so that the `index`-th operation of kind `op` (counted from {@link FaultFs.arm})
 * fails as `mode` says. Counts every operation by kind, so a dry run tells how many operations a call makes.
 */
export class FaultFs {
  readonly fs: FsLike;
  readonly seen: SeenOp[] = [];
  counts: Record<FaultOp, number> = FaultFs.zero();
  crashed = false;
  /** Faults injected so far. */
  injected = 0;
  /** Operations made through the synchronous calls (with `sync`). */
  syncOps = 0;
  #target: { op: FaultOp; index: number; mode: FaultMode } | undefined;

  static zero(): Record<FaultOp, number> {
    return { write: 0, rename: 0, mkdir: 0, fsync: 0, read: 0, open: 0, unlink: 0, stat: 0, readdir: 0 };
  }

  /**
   * @param inner - the fs wrapped
   * @param opts - `sync`: also offer `inner`'s synchronous calls of small files (`readFileSync`, `openSync`, …, as
   *   node's fs does), faulted the same way, so that the library takes that path; default false (`promises` alone)
   */
  constructor(inner: FsLike, opts: { readonly sync?: boolean } = {}) {
    const p = inner.promises;
    /** Counts the operation; at the armed one, what happens: an errno, or the process dying there (torn: after half a write). */
    const fault = (op: FaultOp, path: string): { readonly error: Error; readonly torn: boolean } | undefined => {
      if (this.crashed) throw new ProcessCrashed(`the process is dead (${op} ${path})`);
      const index = this.counts[op]++;
      this.seen.push({ op, index, path });
      const t = this.#target;
      if (t === undefined || t.op !== op || t.index !== index) return undefined;
      this.#target = undefined;
      this.injected++;
      if (t.mode !== 'crash' && t.mode !== 'torn') {
        return { error: Object.assign(new Error(`${t.mode}: injected fault, ${op} '${path}'`), { code: t.mode, errno: ERRNO_NUMBERS[t.mode], syscall: op, path }), torn: false };
      }
      this.crashed = true;
      return { error: new ProcessCrashed(`crashed at ${op} #${index} ${path}`), torn: t.mode === 'torn' };
    };
    const gate = async <T>(op: FaultOp, path: string, run: () => Promise<T>, torn?: () => Promise<unknown>): Promise<T> => {
      const f = fault(op, path);
      if (f === undefined) return run();
      if (f.torn && torn !== undefined) await torn();
      throw f.error;
    };
    const gateSync = <T>(op: FaultOp, path: string, run: () => T, torn?: () => unknown): T => {
      this.syncOps++;
      const f = fault(op, path);
      if (f === undefined) return run();
      if (f.torn && torn !== undefined) torn();
      throw f.error;
    };
    const half = (d: Uint8Array | string): Uint8Array => {
      const bytes = typeof d === 'string' ? Buffer.from(d, 'utf8') : d;
      return bytes.subarray(0, Math.floor(bytes.length / 2));
    };
    const handle = (h: FsFileHandleLike, path: string): FsFileHandleLike => ({
      writeFile: (d) => gate('write', path, () => h.writeFile(d), () => h.writeFile(half(d))),
      datasync: () => gate('fsync', path, () => h.datasync()),
      // a dead process's descriptors are closed by the kernel
      close: () => h.close(),
    });
    const promises: FsPromisesLike = {
      readFile: (path) => gate('read', path, () => p.readFile(path)),
      writeFile: (path, d, o) => gate('write', path, () => p.writeFile(path, d, o), () => p.writeFile(path, half(d), o)),
      // opening for reading (a pack read at a position) is a read, not a mutation
      open: (path, f) => gate(f === 'r' ? 'read' : 'open', path, async () => handle(await p.open(path, f), path)),
      rename: (a, b) => gate('rename', `${a} -> ${b}`, () => p.rename(a, b)),
      unlink: (path) => gate('unlink', path, () => p.unlink(path)),
      mkdir: (path, o) => gate('mkdir', path, () => p.mkdir(path, o)),
      readdir: (path) => gate('readdir', path, () => p.readdir(path)),
      stat: (path) => gate('stat', path, () => p.stat(path)),
      lstat: (path) => gate('stat', path, () => p.lstat(path)),
      link: (a, b) => gate('rename', `${a} => ${b}`, async () => (p.link === undefined ? Promise.reject(Object.assign(new Error('no link'), { code: 'ENOSYS' })) : p.link(a, b))),
      rmdir: (path) => gate('unlink', path, () => p.rmdir(path)),
    };
    this.fs = opts.sync === true ? { promises, ...this.#syncCalls(inner, gateSync, half) } : { promises };
  }

  /** `inner`'s synchronous calls, each through `gate` as its promise form goes. */
  #syncCalls(inner: FsLike, gate: <T>(op: FaultOp, path: string, run: () => T, torn?: () => unknown) => T, half: (d: Uint8Array) => Uint8Array): Partial<FsLike> {
    const need = <K extends keyof FsLike>(key: K): NonNullable<FsLike[K]> => {
      const f = inner[key];
      if (f === undefined) throw new Error(`the fs has no ${String(key)}`);
      return (f as (...a: never[]) => unknown).bind(inner) as NonNullable<FsLike[K]>;
    };
    const [readFileSync, openSync, readSync, writeSync, closeSync, fdatasync, linkSync, renameSync, unlinkSync] = [
      need('readFileSync'), need('openSync'), need('readSync'), need('writeSync'), need('closeSync'), need('fdatasync'), need('linkSync'), need('renameSync'), need('unlinkSync'),
    ];
    const paths = new Map<number, string>();
    return {
      readFileSync: (path) => gate('read', path, () => readFileSync(path)),
      openSync: (path, flags) =>
        gate(flags === 'r' ? 'read' : 'open', path, () => {
          const fd = openSync(path, flags);
          paths.set(fd, path);
          return fd;
        }),
      readSync: (fd, buffer, offset, length, position) => gate('read', paths.get(fd) ?? `fd ${fd}`, () => readSync(fd, buffer, offset, length, position)),
      writeSync: (fd, data) => gate('write', paths.get(fd) ?? `fd ${fd}`, () => writeSync(fd, data), () => writeSync(fd, half(data))),
      fdatasync: (fd, callback) => {
        try {
          gate('fsync', paths.get(fd) ?? `fd ${fd}`, () => undefined);
        } catch (err) {
          queueMicrotask(() => callback(err as Error));
          return;
        }
        fdatasync(fd, callback);
      },
      // a dead process's descriptors are closed by the kernel
      closeSync: (fd) => {
        paths.delete(fd);
        closeSync(fd);
      },
      linkSync: (a, b) => gate('rename', `${a} => ${b}`, () => linkSync(a, b)),
      renameSync: (a, b) => gate('rename', `${a} -> ${b}`, () => renameSync(a, b)),
      unlinkSync: (path) => gate('unlink', path, () => unlinkSync(path)),
    };
  }

  /** Starts counting from zero and arms one fault: operation number `index` (0-based) of kind `op` fails as `mode`. */
  arm(op: FaultOp, index: number, mode: FaultMode): void {
    this.counts = FaultFs.zero();
    this.seen.length = 0;
    this.#target = { op, index, mode };
  }

  /** Starts counting from zero with no fault armed. */
  count(): void {
    this.counts = FaultFs.zero();
    this.syncOps = 0;
    this.seen.length = 0;
    this.#target = undefined;
  }

  /** True while the armed fault has not been reached. */
  get pending(): boolean {
    return this.#target !== undefined;
  }
}
