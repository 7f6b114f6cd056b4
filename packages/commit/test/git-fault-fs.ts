import type { FsFileHandleLike, FsLike, FsPromisesLike } from '../src/git/fs-like.js';

/** The fs operations a fault can hit. */
export type FaultOp = 'readFile' | 'writeFile' | 'open' | 'write' | 'sync' | 'rename' | 'unlink' | 'mkdir' | 'readdir' | 'stat';

/**
 * Wraps an fs so that operation number `failAt` (counting every call from 0) and, when `crash` is set, every later
 * one fails with `errno`: a crash is "the process stopped here", a single fault is "the disk said no once".
 */
export class FaultFs {
  count = 0;
  failAt = Number.POSITIVE_INFINITY;
  crash = false;
  errno = 'EIO';
  readonly ops: FaultOp[] = [];
  readonly fs: FsLike;

  constructor(inner: FsLike) {
    const p = inner.promises;
    const gate = async <T>(op: FaultOp, run: () => Promise<T>): Promise<T> => {
      const n = this.count++;
      this.ops.push(op);
      if (n === this.failAt || (this.crash && n > this.failAt)) throw Object.assign(new Error(`injected ${this.errno} on ${op} #${n}`), { code: this.errno });
      return run();
    };
    const handle = (h: FsFileHandleLike): FsFileHandleLike => ({
      writeFile: (d) => gate('write', () => h.writeFile(d)),
      datasync: () => gate('sync', () => h.datasync()),
      close: () => h.close(),
    });
    const promises: FsPromisesLike = {
      readFile: (path) => gate('readFile', () => p.readFile(path)),
      writeFile: (path, d, o) => gate('writeFile', () => p.writeFile(path, d, o)),
      open: (path, f) => gate('open', async () => handle(await p.open(path, f))),
      rename: (a, b) => gate('rename', () => p.rename(a, b)),
      unlink: (path) => gate('unlink', () => p.unlink(path)),
      mkdir: (path, o) => gate('mkdir', () => p.mkdir(path, o)),
      readdir: (path) => gate('readdir', () => p.readdir(path)),
      stat: (path) => gate('stat', () => p.stat(path)),
      lstat: (path) => gate('stat', () => p.lstat(path)),
      link: (a, b) => gate('rename', async () => (p.link === undefined ? Promise.reject(Object.assign(new Error('no link'), { code: 'ENOSYS' })) : p.link(a, b))),
      rmdir: (path) => p.rmdir(path),
    };
    this.fs = { promises };
  }

  /** Arms the next fault: operation `n` from now fails (and all after it, for a crash). */
  arm(n: number, crash: boolean, errno = 'EIO'): void {
    this.failAt = this.count + n;
    this.crash = crash;
    this.errno = errno;
  }

  disarm(): void {
    this.failAt = Number.POSITIVE_INFINITY;
    this.crash = false;
  }
}
