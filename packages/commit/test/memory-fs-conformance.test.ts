// memoryFs against node's fs on disk: the same calls, in a fresh temp directory and under a root in memory, give the
// same results and the same errors (code, syscall, message), and leave the same tree (contents and hard links).
import * as nodeFs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FsFileHandleLike, FsLike } from '../src/git/fs-like.js';
import { memoryFs } from '../src/git/index.js';

type Op =
  | { readonly op: 'mkdir'; readonly path: string; readonly recursive: boolean }
  | { readonly op: 'writeFile'; readonly path: string; readonly data: string; readonly flag: 'w' | 'wx' }
  /** open `wx`, write, close: the git layer's exclusive write */
  | { readonly op: 'create'; readonly path: string; readonly data: string; readonly sync: boolean }
  | { readonly op: 'link' | 'rename'; readonly from: string; readonly to: string; readonly sync: boolean }
  | { readonly op: 'unlink' | 'readFile'; readonly path: string; readonly sync: boolean }
  | { readonly op: 'rmdir' | 'readdir'; readonly path: string }
  | { readonly op: 'stat'; readonly path: string; readonly lstat: boolean }
  /** an open file kept in a slot for the calls below, which take the open file `slot` modulo how many are open */
  | { readonly op: 'open'; readonly path: string; readonly flags: string; readonly sync: boolean }
  | { readonly op: 'write'; readonly slot: number; readonly data: string }
  | { readonly op: 'read'; readonly slot: number; readonly position: number | null; readonly length: number }
  | { readonly op: 'datasync' | 'close'; readonly slot: number };

type Outcome = { readonly ok: unknown } | { readonly err: string };
type OpenFile = { readonly fd: number } | { readonly handle: FsFileHandleLike };

const need = <T>(f: T | undefined): T => f as T;

/** Runs `ops` on `fs` with their paths under `root`: each call's outcome, then the tree under `root`. */
async function run(fs: FsLike, root: string, ops: readonly Op[]): Promise<{ outcomes: Outcome[]; tree: Record<string, unknown> }> {
  const at = (path: string): string => `${root}/${path}`;
  // inode numbers as the order they are first seen in: the same on both sides when the same names share files
  const inos = new Map<number | bigint, number>();
  const ino = (n: unknown): number => {
    const key = n as number | bigint;
    if (!inos.has(key)) inos.set(key, inos.size);
    return inos.get(key) as number;
  };
  const statOf = (s: Awaited<ReturnType<FsLike['promises']['stat']>>): unknown => {
    const { size, nlink, ino: n } = s as unknown as { size: number; nlink: number; ino: number };
    return s.isFile() ? { file: true, size, nlink, ino: ino(n) } : { dir: s.isDirectory(), ino: ino(n) };
  };
  const open: OpenFile[] = [];
  const slot = (n: number): OpenFile | undefined => open[n % Math.max(open.length, 1)];
  const call = async (op: Op): Promise<unknown> => {
    switch (op.op) {
      case 'mkdir': {
        const made = await fs.promises.mkdir(at(op.path), { recursive: op.recursive } as { recursive: true });
        // node gives the first directory made as the path given is spelt (`d/` for `d//e/`), memoryFs resolved
        return typeof made === 'string' ? posix.resolve('/', made.slice(root.length)) : made;
      }
      case 'writeFile':
        return fs.promises.writeFile(at(op.path), op.data, { flag: op.flag });
      case 'create': {
        const data = Buffer.from(op.data);
        if (op.sync) {
          const fd = need(fs.openSync)(at(op.path), 'wx');
          need(fs.writeSync)(fd, data);
          await new Promise<void>((done, fail) => need(fs.fdatasync)(fd, (err) => (err ? fail(err) : done())));
          return need(fs.closeSync)(fd);
        }
        const handle = await fs.promises.open(at(op.path), 'wx');
        await handle.writeFile(data);
        await handle.datasync();
        return handle.close();
      }
      case 'link':
        return op.sync ? need(fs.linkSync)(at(op.from), at(op.to)) : need(fs.promises.link)(at(op.from), at(op.to));
      case 'rename':
        return op.sync ? need(fs.renameSync)(at(op.from), at(op.to)) : fs.promises.rename(at(op.from), at(op.to));
      case 'unlink':
        return op.sync ? need(fs.unlinkSync)(at(op.path)) : fs.promises.unlink(at(op.path));
      case 'readFile': {
        const data = op.sync ? need(fs.readFileSync)(at(op.path)) : await fs.promises.readFile(at(op.path));
        return { buffer: Buffer.isBuffer(data), text: String(data) };
      }
      case 'rmdir':
        return fs.promises.rmdir(at(op.path));
      case 'readdir':
        return (await fs.promises.readdir(at(op.path))).map(String).sort();
      case 'stat':
        return statOf(await (op.lstat ? fs.promises.lstat(at(op.path)) : fs.promises.stat(at(op.path))));
      case 'open':
        open.push(op.sync ? { fd: need(fs.openSync)(at(op.path), op.flags) } : { handle: await fs.promises.open(at(op.path), op.flags) });
        return open.length;
      default: {
        const file = slot(op.slot);
        if (file === undefined) return 'none open';
        if (op.op === 'write') {
          const data = Buffer.from(op.data);
          return 'fd' in file ? need(fs.writeSync)(file.fd, data) : file.handle.writeFile(data);
        }
        if (op.op === 'read') {
          const buffer = Buffer.alloc(op.length);
          const n = 'fd' in file ? need(fs.readSync)(file.fd, buffer, 0, op.length, op.position as number) : (await (file.handle as Required<FsFileHandleLike>).read(buffer, 0, op.length, op.position as number)).bytesRead;
          return buffer.subarray(0, n).toString();
        }
        if (op.op === 'datasync') {
          if ('handle' in file) return file.handle.datasync();
          return new Promise<void>((done, fail) => need(fs.fdatasync)(file.fd, (err) => (err ? fail(err) : done())));
        }
        open.splice(open.indexOf(file), 1);
        return 'fd' in file ? need(fs.closeSync)(file.fd) : file.handle.close();
      }
    }
  };
  const outcomes: Outcome[] = [];
  try {
    for (const op of ops) {
      try {
        outcomes.push({ ok: await call(op) });
      } catch (err) {
        const e = err as { code?: string; syscall?: string; message: string };
        outcomes.push({ err: `${e.code} ${e.syscall} ${e.message.replaceAll(root, '<root>')}` });
      }
    }
  } finally {
    for (const file of open) 'fd' in file ? need(fs.closeSync)(file.fd) : await file.handle.close();
  }
  const tree: Record<string, unknown> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const name of (await fs.promises.readdir(at(rel))).map(String).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const stat = await fs.promises.lstat(at(path));
      tree[path] = stat.isDirectory() ? statOf(stat) : { ...(statOf(stat) as object), text: String(await fs.promises.readFile(at(path))) };
      if (stat.isDirectory()) await walk(path);
    }
  };
  await walk('');
  return { outcomes, tree };
}

/** `ops` on node's fs in a fresh temp directory and on a fresh memoryFs under `/root/of/test`. */
async function both(ops: readonly Op[]): Promise<{ disk: Awaited<ReturnType<typeof run>>; memory: Awaited<ReturnType<typeof run>> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ctxgit-memory-fs-'));
  try {
    const disk = await run(nodeFs as unknown as FsLike, dir, ops);
    const fs = await memoryFs();
    await fs.promises.mkdir('/root/of/test', { recursive: true });
    const memory = await run(fs, '/root/of/test', ops);
    return { disk, memory };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mkdir = (path: string, recursive = true): Op => ({ op: 'mkdir', path, recursive });
const write = (path: string, data = path, flag: 'w' | 'wx' = 'w'): Op => ({ op: 'writeFile', path, data, flag });
const create = (path: string, data = path, sync = true): Op => ({ op: 'create', path, data, sync });
const read = (path: string, sync = false): Op => ({ op: 'readFile', path, sync });
const link = (from: string, to: string, sync = true): Op => ({ op: 'link', from, to, sync });
const rename = (from: string, to: string, sync = true): Op => ({ op: 'rename', from, to, sync });
const unlink = (path: string, sync = true): Op => ({ op: 'unlink', path, sync });
const rmdir = (path: string): Op => ({ op: 'rmdir', path });
const readdir = (path: string): Op => ({ op: 'readdir', path });
const stat = (path: string, lstat = false): Op => ({ op: 'stat', path, lstat });
const open = (path: string, flags: string, sync = true): Op => ({ op: 'open', path, flags, sync });
const fdWrite = (data: string, slot = 0): Op => ({ op: 'write', slot, data });
const fdRead = (position: number | null, length: number, slot = 0): Op => ({ op: 'read', slot, position, length });
const close = (slot = 0): Op => ({ op: 'close', slot });

/** Each case: the calls, and the error code the last one fails with (undefined: it succeeds). */
const CASES: Record<string, { readonly ops: readonly Op[]; readonly last: string | undefined }> = {
  'mkdir recursive: new, existing, over a file, under a file': { ops: [mkdir('d/e/f'), mkdir('d/e'), mkdir('d'), write('a'), mkdir('a'), mkdir('a/b/c')], last: 'ENOTDIR' },
  'mkdir recursive onto a file': { ops: [write('a'), mkdir('a')], last: 'EEXIST' },
  'mkdir recursive with //, ./ and a trailing /': { ops: [mkdir('d//e/./f/'), readdir('d/e'), mkdir('d/../g')], last: undefined },
  'mkdir: existing': { ops: [mkdir('d', false), mkdir('d', false)], last: 'EEXIST' },
  'mkdir: parent missing': { ops: [mkdir('d/e', false)], last: 'ENOENT' },
  'mkdir: parent a file': { ops: [write('a'), mkdir('a/e', false)], last: 'ENOTDIR' },
  'writeFile: creates, truncates, reads back through //, . and ..': {
    ops: [mkdir('d'), write('d/a', 'a longer text'), write('d/a', 'short'), read('d//a'), read('d/./a', true), read('d/../d/a'), stat('d/a')],
    last: undefined,
  },
  'writeFile: UTF-8': { ops: [write('a', 'ü€𝄞'), read('a'), stat('a')], last: undefined },
  'writeFile wx: existing': { ops: [write('a'), write('a', 'b', 'wx'), read('a')], last: undefined },
  'writeFile wx onto a file': { ops: [write('a'), write('a', 'b', 'wx')], last: 'EEXIST' },
  'writeFile wx onto a directory': { ops: [mkdir('d'), write('d', 'b', 'wx')], last: 'EEXIST' },
  'writeFile: parent missing': { ops: [write('d/a')], last: 'ENOENT' },
  'writeFile: parent a file': { ops: [write('a'), write('a/b')], last: 'ENOTDIR' },
  'writeFile onto a directory': { ops: [mkdir('d'), write('d')], last: 'EISDIR' },
  'writeFile with a trailing /': { ops: [write('a/')], last: 'EISDIR' },
  'readFile: missing': { ops: [read('a')], last: 'ENOENT' },
  'readFile (sync): missing': { ops: [read('a', true)], last: 'ENOENT' },
  'readFile: a directory': { ops: [mkdir('d'), read('d')], last: 'EISDIR' },
  'readFile (sync): a directory': { ops: [mkdir('d'), read('d', true)], last: 'EISDIR' },
  'readFile: a file with a trailing /': { ops: [write('a'), read('a/')], last: 'ENOTDIR' },
  'readFile: under a file': { ops: [write('a'), read('a/b')], last: 'ENOTDIR' },
  'readdir: names sorted': { ops: [mkdir('d'), write('d/b'), write('d/a'), mkdir('d/c'), write('d/B'), readdir('d'), readdir('d/c'), readdir('')], last: undefined },
  'readdir: missing': { ops: [readdir('d')], last: 'ENOENT' },
  'readdir: a file': { ops: [write('a'), readdir('a')], last: 'ENOTDIR' },
  'rmdir: empty': { ops: [mkdir('d/e'), rmdir('d/e'), readdir('d'), rmdir('d/')], last: undefined },
  'rmdir: not empty': { ops: [mkdir('d'), write('d/a'), rmdir('d')], last: 'ENOTEMPTY' },
  'rmdir: a file': { ops: [write('a'), rmdir('a')], last: 'ENOTDIR' },
  'rmdir: missing': { ops: [rmdir('d')], last: 'ENOENT' },
  'stat and lstat: a file, a directory': { ops: [write('a', 'abc'), mkdir('d'), stat('a'), stat('a', true), stat('d'), stat('d', true), stat('d/')], last: undefined },
  'stat: missing': { ops: [stat('a')], last: 'ENOENT' },
  'lstat: missing': { ops: [stat('a', true)], last: 'ENOENT' },
  'stat: a file with a trailing /': { ops: [write('a'), stat('a/')], last: 'ENOTDIR' },
  'unlink: a file, its other name stays': { ops: [write('a', 'x'), link('a', 'b'), unlink('a'), read('b'), stat('b')], last: undefined },
  'unlink: missing': { ops: [unlink('a', false)], last: 'ENOENT' },
  'unlink (sync): missing': { ops: [unlink('a')], last: 'ENOENT' },
  'unlink: a directory': { ops: [mkdir('d'), unlink('d')], last: 'EISDIR' },
  'unlink (sync): a directory': { ops: [mkdir('d'), unlink('d', false)], last: 'EISDIR' },
  'unlink: a file with a trailing /': { ops: [write('a'), unlink('a/')], last: 'ENOTDIR' },
  'link: both names one file (a write through one is read through the other)': {
    ops: [mkdir('d'), write('a', 'one'), link('a', 'd/b'), link('d/b', 'c', false), write('d/b', 'two'), read('a'), read('c', true), stat('a'), stat('c')],
    last: undefined,
  },
  'link: the new name exists': { ops: [write('a'), write('b'), link('a', 'b')], last: 'EEXIST' },
  'link (promise): the new name exists': { ops: [write('a'), write('b'), link('a', 'b', false)], last: 'EEXIST' },
  'link: onto itself': { ops: [write('a'), link('a', 'a')], last: 'EEXIST' },
  'link: onto a directory': { ops: [write('a'), mkdir('d'), link('a', 'd')], last: 'EEXIST' },
  'link: the existing name missing': { ops: [write('b'), link('a', 'b')], last: 'ENOENT' },
  'link: a directory': { ops: [mkdir('d'), link('d', 'e')], last: 'EPERM' },
  'link: the new name in a missing directory': { ops: [write('a'), link('a', 'd/a')], last: 'ENOENT' },
  'link: the new name with a trailing /': { ops: [write('a'), link('a', 'b/')], last: 'ENOENT' },
  'rename onto a file: replaced': { ops: [write('a', 'new'), write('b', 'old'), link('b', 'c'), rename('a', 'b'), read('b'), stat('b'), stat('c'), readdir('')], last: undefined },
  'rename (promise) to a new name in another directory': { ops: [mkdir('d'), write('a'), rename('a', 'd/a', false), readdir(''), readdir('d')], last: undefined },
  'rename between two names of one file: nothing': { ops: [write('a'), link('a', 'b'), rename('a', 'b'), rename('b', 'b', false), readdir('')], last: undefined },
  'rename a directory onto an empty one, then down a level': { ops: [mkdir('d'), write('d/a'), mkdir('e'), rename('d', 'e'), mkdir('f'), rename('e', 'f/e/'), readdir('f/e')], last: undefined },
  'rename: missing': { ops: [write('b'), rename('a', 'b'), read('b')], last: undefined },
  'rename: missing source': { ops: [write('b'), rename('a', 'b')], last: 'ENOENT' },
  'rename (promise): missing source': { ops: [rename('a', 'b', false)], last: 'ENOENT' },
  'rename: into a missing directory': { ops: [write('a'), rename('a', 'd/a')], last: 'ENOENT' },
  'rename: a file onto a directory': { ops: [write('a'), mkdir('d'), rename('a', 'd')], last: 'EISDIR' },
  'rename: a directory onto a file': { ops: [write('a'), mkdir('d'), rename('d', 'a')], last: 'ENOTDIR' },
  'rename: a directory onto one not empty': { ops: [mkdir('d'), mkdir('e/f'), rename('d', 'e')], last: 'ENOTEMPTY' },
  'rename: a directory into itself': { ops: [mkdir('d'), rename('d', 'd/e')], last: 'EINVAL' },
  'rename: onto a directory above': { ops: [mkdir('d/e'), rename('d/e', 'd')], last: 'ENOTEMPTY' },
  'rename: a file to a name with a trailing /': { ops: [write('a'), rename('a', 'b/')], last: 'ENOTDIR' },
  'create (open wx, write, close), sync and promise': { ops: [create('a', 'x'), create('b', 'y', false), read('a'), read('b', true)], last: undefined },
  'create: exists': { ops: [write('a'), create('a')], last: 'EEXIST' },
  'create (promise): exists': { ops: [write('a'), create('a', 'a', false)], last: 'EEXIST' },
  'create: parent missing': { ops: [create('d/a')], last: 'ENOENT' },
  'open r: reads at positions and from the file position': {
    ops: [write('a', '0123456789'), open('a', 'r'), fdRead(3, 4), fdRead(null, 2), fdRead(null, 3), fdRead(8, 10), fdRead(20, 5), fdRead(null, 20), close()],
    last: undefined,
  },
  'open r (promise): reads at positions': { ops: [write('a', '0123456789'), open('a', 'r', false), fdRead(3, 4), fdRead(8, 10), fdRead(null, 3), close()], last: undefined },
  'open w: writes follow each other, the file truncated first': { ops: [write('a', 'old contents'), open('a', 'w'), fdWrite('ab'), fdWrite('cd'), close(), read('a')], last: undefined },
  'open a: appends': { ops: [write('a', 'old'), open('a', 'a'), fdWrite('+1'), fdWrite('+2'), close(), read('a')], last: undefined },
  'open r+: overwrites in place and reads on': { ops: [write('a', '0123456789'), open('a', 'r+'), fdWrite('ab'), fdRead(null, 3), fdWrite('Z'), close(), read('a')], last: undefined },
  'open: a file unlinked or replaced while open is still read': {
    ops: [write('a', 'first'), open('a', 'r'), unlink('a'), fdRead(0, 10), write('b', 'second'), open('b', 'r', false), write('c', 'third'), rename('c', 'b'), fdRead(0, 10, 1), read('b')],
    last: undefined,
  },
  'open: a write through a read-only descriptor': { ops: [write('a'), open('a', 'r'), fdWrite('x')], last: 'EBADF' },
  'open: a read through a write-only descriptor': { ops: [write('a'), open('a', 'w'), fdRead(0, 1)], last: 'EBADF' },
  'open r: a directory opens, its read fails': { ops: [mkdir('d'), open('d', 'r'), fdRead(0, 1)], last: 'EISDIR' },
  'open w: a directory': { ops: [mkdir('d'), open('d', 'w')], last: 'EISDIR' },
  'open r: missing': { ops: [open('a', 'r')], last: 'ENOENT' },
  'open wx (promise): exists': { ops: [write('a'), open('a', 'wx', false)], last: 'EEXIST' },
};

const codeOf = (outcome: Outcome | undefined): string | undefined => (outcome !== undefined && 'err' in outcome ? outcome.err.split(' ')[0] : undefined);

describe('memoryFs against node fs on disk', () => {
  for (const [name, { ops, last }] of Object.entries(CASES)) {
    it(name, async () => {
      const { disk, memory } = await both(ops);
      expect(memory).toEqual(disk);
      expect(codeOf(memory.outcomes.at(-1))).toBe(last);
    });
  }

  it('property: any short sequence of calls on a few names gives what node fs gives', async () => {
    const path = fc.constantFrom('a', 'b', 'd', 'd/a', 'd/b', 'd/d', 'd/d/a', 'a/b', 'd/', 'a/');
    const data = fc.constantFrom('', 'x', 'hello', 'ü€');
    const sync = fc.boolean();
    const slot = fc.nat({ max: 3 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.record({ op: fc.constant('mkdir' as const), path, recursive: fc.boolean() }), weight: 4 },
      { arbitrary: fc.record({ op: fc.constant('writeFile' as const), path, data, flag: fc.constantFrom('w' as const, 'wx' as const) }), weight: 4 },
      { arbitrary: fc.record({ op: fc.constant('create' as const), path, data, sync }), weight: 2 },
      { arbitrary: fc.record({ op: fc.constantFrom('link' as const, 'rename' as const), from: path, to: path, sync }), weight: 4 },
      { arbitrary: fc.record({ op: fc.constantFrom('unlink' as const, 'readFile' as const), path, sync }), weight: 3 },
      { arbitrary: fc.record({ op: fc.constantFrom('rmdir' as const, 'readdir' as const), path }), weight: 2 },
      { arbitrary: fc.record({ op: fc.constant('stat' as const), path, lstat: fc.boolean() }), weight: 2 },
      { arbitrary: fc.record({ op: fc.constant('open' as const), path, flags: fc.constantFrom('r', 'r+', 'w', 'wx', 'a'), sync }), weight: 2 },
      { arbitrary: fc.record({ op: fc.constant('write' as const), slot, data }), weight: 1 },
      { arbitrary: fc.record({ op: fc.constant('read' as const), slot, position: fc.option(fc.nat({ max: 6 })), length: fc.integer({ min: 1, max: 6 }) }), weight: 1 },
      { arbitrary: fc.record({ op: fc.constantFrom('datasync' as const, 'close' as const), slot }), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 16 }), async (ops) => {
        const { disk, memory } = await both(ops);
        expect(memory).toEqual(disk);
      }),
      { numRuns: 100 },
    );
  });
});
