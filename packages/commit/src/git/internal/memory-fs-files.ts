import type { FsFileHandleLike } from '../fs-like.js';
import { fsError } from './memory-fs-errors.js';
import type { FileNode, FsNode, MemoryTree } from './memory-fs-tree.js';

/** What an open flag string asks for. */
interface OpenFlags {
  readonly read: boolean;
  readonly write: boolean;
  readonly create: boolean;
  readonly exclusive: boolean;
  readonly truncate: boolean;
  readonly append: boolean;
}

const flags = (read: boolean, write: boolean, mode: '' | 'w' | 'a', exclusive = false): OpenFlags => ({
  read,
  write,
  create: mode !== '',
  exclusive,
  truncate: mode === 'w',
  append: mode === 'a',
});

/** Node's string flags (`rs`/`as`: synchronous on disk, the same here). */
const FLAGS = new Map<string, OpenFlags>([
  ['r', flags(true, false, '')],
  ['rs', flags(true, false, '')],
  ['sr', flags(true, false, '')],
  ['r+', flags(true, true, '')],
  ['rs+', flags(true, true, '')],
  ['sr+', flags(true, true, '')],
  ['w', flags(false, true, 'w')],
  ['w+', flags(true, true, 'w')],
  ['a', flags(false, true, 'a')],
  ['as', flags(false, true, 'a')],
  ['sa', flags(false, true, 'a')],
  ['a+', flags(true, true, 'a')],
  ['as+', flags(true, true, 'a')],
  ['sa+', flags(true, true, 'a')],
  ...['wx', 'xw'].map((f): [string, OpenFlags] => [f, flags(false, true, 'w', true)]),
  ...['wx+', 'xw+'].map((f): [string, OpenFlags] => [f, flags(true, true, 'w', true)]),
  ...['ax', 'xa'].map((f): [string, OpenFlags] => [f, flags(false, true, 'a', true)]),
  ...['ax+', 'xa+'].map((f): [string, OpenFlags] => [f, flags(true, true, 'a', true)]),
]);

function parseFlags(value: string): OpenFlags {
  const parsed = FLAGS.get(value);
  if (parsed === undefined) throw Object.assign(new TypeError(`The value "${value}" is invalid for option "flags"`), { code: 'ERR_INVALID_ARG_VALUE' });
  return parsed;
}

interface OpenFile {
  readonly node: FsNode;
  readonly flags: OpenFlags;
  position: number;
}

/** Writes `data` into `file` at `at`, growing its bytes (to the size needed when it was empty, else at least twice). */
function writeAt(file: FileNode, at: number, data: Uint8Array): void {
  const end = at + data.length;
  if (end > file.bytes.length) {
    const grown = new Uint8Array(file.bytes.length === 0 ? end : Math.max(end, 2 * file.bytes.length));
    grown.set(file.bytes.subarray(0, file.size));
    file.bytes = grown;
  }
  file.bytes.set(data, at);
  if (end > file.size) file.size = end;
}

/** A copy of a file's bytes in a Buffer of its own (not a slice of node's shared pool). */
function copyOut(file: FileNode): Buffer {
  const bytes = file.bytes.slice(0, file.size);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const toBytes = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

/**
 * The open files of an in-memory file system and the calls on whole files. A descriptor counts down from 0x7fffffff
 * and is never given twice (far from a process's own descriptors, which a caller may keep with these in one map).
 */
export class MemoryFiles {
  private nextFd = 0x7fffffff;
  private readonly open = new Map<number, OpenFile>();
  constructor(private readonly tree: MemoryTree) {}

  /** The node `path` opens with `flags` (created, truncated as they ask); a directory only for reading. */
  private node(path: string, flags: OpenFlags): FsNode {
    const tree = this.tree;
    const { dir, name, node, dirOnly } = tree.at(path, 'open');
    // linux refuses a file to create named as a directory before it looks the name up
    if (flags.create && dirOnly) throw fsError('EISDIR', 'open', path);
    if (node === undefined) {
      if (!flags.create) throw fsError('ENOENT', 'open', path);
      const made = tree.newFile();
      dir.entries.set(name, made);
      tree.touch(dir);
      return made;
    }
    if (flags.create && flags.exclusive) throw fsError('EEXIST', 'open', path);
    if (node.kind === 'dir') {
      if (flags.write) throw fsError('EISDIR', 'open', path);
      return node;
    }
    if (dirOnly) throw fsError('ENOTDIR', 'open', path);
    if (flags.truncate) {
      node.bytes = new Uint8Array(0);
      node.size = 0;
      node.mtimeMs = tree.now();
    }
    return node;
  }

  openSync(path: string, flagString: string): number {
    const flags = parseFlags(flagString);
    const node = this.node(path, flags);
    const fd = this.nextFd--;
    this.open.set(fd, { node, flags, position: 0 });
    return fd;
  }

  private file(fd: number, syscall: string): OpenFile {
    const file = this.open.get(fd);
    if (file === undefined) throw fsError('EBADF', syscall);
    return file;
  }

  /** Reads into `buffer` from `offset` up to `length` bytes at `position` (null or -1: at the file's position, moving it). */
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number {
    const file = this.file(fd, 'read');
    if (!file.flags.read) throw fsError('EBADF', 'read');
    if (file.node.kind === 'dir') throw fsError('EISDIR', 'read');
    if (offset < 0 || length < 0 || offset + length > buffer.byteLength) {
      throw Object.assign(new RangeError(`The value of "length" is out of range: offset ${offset}, length ${length}, buffer ${buffer.byteLength}`), { code: 'ERR_OUT_OF_RANGE' });
    }
    const moves = position === null || position < 0;
    const at = moves ? file.position : position;
    const node = file.node;
    const n = Math.max(0, Math.min(length, node.size - at));
    buffer.set(node.bytes.subarray(at, at + n), offset);
    if (moves) file.position += n;
    return n;
  }

  /** Writes `data` at the file's position (its end when opened to append), moving it; returns the bytes written. */
  writeSync(fd: number, data: Uint8Array | string): number {
    const file = this.file(fd, 'write');
    const node = file.node;
    if (!file.flags.write || node.kind === 'dir') throw fsError('EBADF', 'write');
    const bytes = toBytes(data);
    const at = file.flags.append ? node.size : file.position;
    writeAt(node, at, bytes);
    node.mtimeMs = this.tree.now();
    file.position = at + bytes.length;
    return bytes.length;
  }

  closeSync(fd: number): void {
    if (!this.open.delete(fd)) throw fsError('EBADF', 'close');
  }

  /** Nothing to flush: calls back (asynchronously) with EBADF for a descriptor not open, else with null. */
  fdatasync(fd: number, callback: (err: Error | null) => void): void {
    const err = this.open.has(fd) ? null : fsError('EBADF', 'fdatasync');
    queueMicrotask(() => callback(err));
  }

  /** A handle of `path` opened with `flags`, as `fs.promises.open` gives it (a second `close` does nothing). */
  handle(path: string, flags: string): FsFileHandleLike & { readonly fd: number } {
    const fd = this.openSync(path, flags);
    let closed = false;
    const check = (syscall: string): void => {
      if (closed) throw fsError('EBADF', syscall);
    };
    return {
      fd,
      writeFile: async (data: Uint8Array | string) => {
        check('write');
        this.writeSync(fd, data);
      },
      read: async (buffer, offset, length, position) => {
        check('read');
        return { bytesRead: this.readSync(fd, buffer, offset, length, position), buffer };
      },
      datasync: async () => check('fdatasync'),
      close: async () => {
        if (closed) return;
        closed = true;
        this.closeSync(fd);
      },
    };
  }

  /** The whole file at `path`, a copy. */
  readFile(path: string): Buffer {
    const node = this.node(path, FLAGS.get('r') as OpenFlags);
    if (node.kind === 'dir') throw fsError('EISDIR', 'read');
    return copyOut(node);
  }

  /** Writes the file at `path` whole (`flag`: as node's, default `w`), strings as UTF-8; the bytes are copied. */
  writeFile(path: string, data: Uint8Array | string, flag = 'w'): void {
    const flags = parseFlags(flag);
    const node = this.node(path, flags);
    if (!flags.write || node.kind === 'dir') throw fsError('EBADF', 'write');
    writeAt(node, flags.append ? node.size : 0, toBytes(data));
    node.mtimeMs = this.tree.now();
  }
}
