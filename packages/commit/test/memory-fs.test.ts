// The in-memory file system of a repository in memory: rename keeps POSIX's meaning while freeing the file it replaces;
// paths, errors, copies, descriptors and clock as the git layer relies on (memory-fs-conformance.test.ts: against node's fs).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { memoryFs, openGit, readRef, compareAndSwapRef, writeBlob } from '../src/git/index.js';

const text = async (fs: Awaited<ReturnType<typeof memoryFs>>, path: string): Promise<string> => String(await fs.promises.readFile(path));
const code = async (p: Promise<unknown>): Promise<unknown> => p.then(() => 'ok', (err: unknown) => (err as { code?: unknown }).code);

describe('memoryFs', () => {
  it('renames onto an existing file: the target holds the source, the source name is gone', async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    await fs.promises.writeFile('/d/ref', 'old');
    await fs.promises.writeFile('/d/new', 'new');
    await fs.promises.rename('/d/new', '/d/ref');
    expect(await text(fs, '/d/ref')).toBe('new');
    expect((await fs.promises.readdir('/d')).map(String)).toEqual(['ref']);
    expect(String(fs.readFileSync?.('/d/ref'))).toBe('new');
    // the synchronous form (what the git layer calls) is the same rename
    await fs.promises.writeFile('/d/next', 'next');
    fs.renameSync?.('/d/next', '/d/ref');
    expect((await fs.promises.readdir('/d')).map(String)).toEqual(['ref']);
    expect(await text(fs, '/d/ref')).toBe('next');
  });

  it('renames onto a missing name, and leaves both names of one file as they are (POSIX)', async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    await fs.promises.writeFile('/d/a', 'a');
    await fs.promises.rename('/d/a', '/d/b');
    expect((await fs.promises.readdir('/d')).map(String)).toEqual(['b']);
    await fs.promises.link?.('/d/b', '/d/c');
    await fs.promises.rename('/d/b', '/d/c');
    expect((await fs.promises.readdir('/d')).map(String).sort()).toEqual(['b', 'c']);
  });

  it('fails a rename from a missing file with ENOENT and leaves the target', async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    await fs.promises.writeFile('/d/ref', 'old');
    expect(await code(fs.promises.rename('/d/missing', '/d/ref'))).toBe('ENOENT');
    expect(await text(fs, '/d/ref')).toBe('old');
  });

  it('moves refs of a repository in memory as before', async () => {
    const ctx = await openGit({ memory: true });
    const a = await writeBlob(ctx, 'a');
    const b = await writeBlob(ctx, 'b');
    await compareAndSwapRef(ctx, 'refs/heads/x', null, a);
    for (let i = 0; i < 20; i++) await compareAndSwapRef(ctx, 'refs/heads/x', i % 2 === 0 ? a : b, i % 2 === 0 ? b : a);
    expect(await readRef(ctx, 'refs/heads/x')).toBe(a);
  });

  it('resolves //, a trailing /, . and .. in paths, and a relative path from the root', async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('//d/./e/', { recursive: true });
    await fs.promises.writeFile('/d/e/../f', 'f');
    expect(await text(fs, 'd/f')).toBe('f');
    expect((await fs.promises.readdir('/d/e/..//')).map(String)).toEqual(['e', 'f']);
    expect((await fs.promises.stat('/d/e/')).isDirectory()).toBe(true);
    expect(await code(fs.promises.stat('/d/f/'))).toBe('ENOTDIR');
  });

  it("lists a directory's names sorted", async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    for (const name of ['b', 'a', 'C', 'c', 'a.lock']) await fs.promises.writeFile(`/d/${name}`, name);
    expect(await fs.promises.readdir('/d')).toEqual(['C', 'a', 'a.lock', 'b', 'c']);
  });

  it("fails as node's fs does: code, errno, syscall, path (and dest), message", async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    await fs.promises.writeFile('/d/a', 'a');
    const error = async (p: Promise<unknown>): Promise<unknown> => p.then(() => 'ok', (err: unknown) => ({ ...(err as object), message: (err as Error).message, error: err instanceof Error }));
    expect(await error(fs.promises.readFile('/x'))).toEqual({ errno: -2, code: 'ENOENT', syscall: 'open', path: '/x', message: "ENOENT: no such file or directory, open '/x'", error: true });
    expect(await error(fs.promises.rename('/d/x', '/d/a'))).toEqual({
      errno: -2,
      code: 'ENOENT',
      syscall: 'rename',
      path: '/d/x',
      dest: '/d/a',
      message: "ENOENT: no such file or directory, rename '/d/x' -> '/d/a'",
      error: true,
    });
    expect(await error(Promise.resolve().then(() => fs.linkSync?.('/d/a', '/d/a')))).toMatchObject({ code: 'EEXIST', syscall: 'link', message: "EEXIST: file already exists, link '/d/a' -> '/d/a'" });
    expect(await error(fs.promises.writeFile('/d/a', 'b', { flag: 'wx' }))).toMatchObject({ code: 'EEXIST', syscall: 'open', path: '/d/a' });
    expect(await error(fs.promises.rmdir('/'))).toMatchObject({ code: 'EBUSY' });
    expect(await code(fs.promises.rmdir('/d'))).toBe('ENOTEMPTY');
    expect(await code(fs.promises.unlink('/d'))).toBe('EISDIR');
    expect(await code(fs.promises.readdir('/d/a'))).toBe('ENOTDIR');
    expect(await code(fs.promises.writeFile('/nowhere/a', 'a'))).toBe('ENOENT');
    expect(() => fs.openSync?.('/d/a', 'q')).toThrow(TypeError);
  });

  it('copies bytes in and out: a caller never holds the stored ones, nor a slice of a shared buffer', async () => {
    const fs = await memoryFs();
    const data = Buffer.from('abc');
    await fs.promises.writeFile('/a', data);
    data[0] = 0x78;
    const first = (await fs.promises.readFile('/a')) as Buffer;
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(first.toString()).toBe('abc');
    first[1] = 0x78;
    const again = fs.readFileSync?.('/a') as Buffer;
    expect(String(again)).toBe('abc');
    expect(again.buffer.byteLength).toBe(3);
    const fd = fs.openSync?.('/b', 'wx') as number;
    const written = Buffer.from('xyz');
    expect(fs.writeSync?.(fd, written)).toBe(3);
    written[0] = 0x61;
    fs.closeSync?.(fd);
    expect(await text(fs, '/b')).toBe('xyz');
  });

  it('keeps one file under the names of its hard links: a write through one is read through the other', async () => {
    const fs = await memoryFs();
    await fs.promises.writeFile('/a', 'one');
    await fs.promises.link?.('/a', '/b');
    await fs.promises.writeFile('/b', 'two!');
    expect(await text(fs, '/a')).toBe('two!');
    const [a, b] = (await Promise.all([fs.promises.stat('/a'), fs.promises.stat('/b')])) as unknown as { ino: number; nlink: number; size: number }[];
    expect(a).toMatchObject({ ino: b?.ino, nlink: 2, size: 4 });
    await fs.promises.unlink('/a');
    expect(await text(fs, '/b')).toBe('two!');
    expect(await fs.promises.stat('/b')).toMatchObject({ nlink: 1 });
  });

  it('stamps mtimeMs with the clock given: a file on write, a directory when its names change', async () => {
    let t = 1_000;
    const fs = await memoryFs({ now: () => t });
    await fs.promises.mkdir('/d', { recursive: true });
    t = 2_000;
    await fs.promises.writeFile('/d/a', 'a');
    expect((await fs.promises.stat('/d/a')).mtimeMs).toBe(2_000);
    expect((await fs.promises.stat('/d')).mtimeMs).toBe(2_000);
    t = 3_000;
    const fd = fs.openSync?.('/d/a', 'a') as number;
    fs.writeSync?.(fd, Buffer.from('b'));
    fs.closeSync?.(fd);
    expect(await fs.promises.lstat('/d/a')).toMatchObject({ mtimeMs: 3_000, size: 2 });
    expect((await fs.promises.stat('/d')).mtimeMs).toBe(2_000);
    expect((await (await memoryFs()).promises.stat('/')).mtimeMs).toBeGreaterThan(1_600_000_000_000);
  });

  it('gives descriptors down from 0x7fffffff, never twice; one closed is EBADF', async () => {
    const fs = await memoryFs();
    await fs.promises.writeFile('/a', 'abcdef');
    const fd = fs.openSync?.('/a', 'r') as number;
    expect(fd).toBe(0x7fffffff);
    const buf = Buffer.alloc(4);
    expect(fs.readSync?.(fd, buf, 1, 3, 2)).toBe(3);
    expect(buf.subarray(1).toString()).toBe('cde');
    fs.closeSync?.(fd);
    expect(fs.openSync?.('/a', 'r')).toBe(0x7ffffffe);
    expect(() => fs.readSync?.(fd, buf, 0, 1, 0)).toThrow(expect.objectContaining({ code: 'EBADF', syscall: 'read', message: 'EBADF: bad file descriptor, read' }));
    expect(() => fs.writeSync?.(fd, buf)).toThrow(expect.objectContaining({ code: 'EBADF' }));
    expect(() => fs.closeSync?.(fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
    // fdatasync calls back later, with EBADF for a descriptor not open
    const called: unknown[] = [];
    fs.fdatasync?.(fd, (err) => called.push(err));
    fs.fdatasync?.(0x7ffffffe, (err) => called.push(err));
    expect(called).toEqual([]);
    await new Promise((done) => setImmediate(done));
    expect(called).toEqual([expect.objectContaining({ code: 'EBADF', syscall: 'fdatasync' }), null]);
  });

  it('opens a handle: wx creates once, writeFile and read, datasync, close (twice is nothing), then EBADF', async () => {
    const fs = await memoryFs();
    const handle = await fs.promises.open('/a', 'wx');
    expect(await code(fs.promises.open('/a', 'wx'))).toBe('EEXIST');
    await handle.writeFile(Buffer.from('hello'));
    await handle.datasync();
    await handle.close();
    await handle.close();
    expect(await code(handle.writeFile(Buffer.from('x')))).toBe('EBADF');
    expect(await code(handle.datasync())).toBe('EBADF');
    const reader = await fs.promises.open('/a', 'r');
    const buf = Buffer.alloc(8);
    expect(await reader.read?.(buf, 0, 8, 1)).toMatchObject({ bytesRead: 4 });
    expect(buf.subarray(0, 4).toString()).toBe('ello');
    await reader.close();
    expect(await text(fs, '/a')).toBe('hello');
  });

  it('drops the bytes of a file replaced by a rename or unlinked (and of one unlinked while open, once closed)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    const churn = async (): Promise<void> => {
      for (let i = 0; i < 48; i++) {
        const fd = fs.openSync?.('/d/tmp', 'wx') as number;
        fs.writeSync?.(fd, new Uint8Array(1 << 20).fill(i));
        fs.closeSync?.(fd);
        if (i % 3 === 0) fs.renameSync?.('/d/tmp', '/d/ref');
        else if (i % 3 === 1) await fs.promises.rename('/d/tmp', '/d/ref');
        else {
          const open = fs.openSync?.('/d/tmp', 'r') as number;
          fs.unlinkSync?.('/d/tmp');
          fs.closeSync?.(open);
        }
      }
    };
    // V8 frees array buffers after a collection, in the background: collect until that is done
    const settled = async (): Promise<number> => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((done) => setImmediate(done));
      }
      return process.memoryUsage().arrayBuffers;
    };
    const before = await settled();
    await churn();
    // the last file renamed (1 MiB) stays; 47 MiB more would be the files kept (31 replaced, 16 unlinked)
    expect((await settled()) - before).toBeLessThan(12 << 20);
    expect(await fs.promises.readdir('/d')).toEqual(['ref']);
    expect((fs.readFileSync?.('/d/ref') as Buffer)[0]).toBe(46);
  });
});
