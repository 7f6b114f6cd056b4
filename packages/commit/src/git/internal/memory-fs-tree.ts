import { fsError } from './memory-fs-errors.js';
import type { MemoryFsCode } from './memory-fs-errors.js';

/** A file: its bytes are `bytes[0, size)` (`bytes` may be longer, room for appends); hard links share the object. */
export interface FileNode {
  readonly kind: 'file';
  readonly ino: number;
  bytes: Uint8Array;
  size: number;
  nlink: number;
  mtimeMs: number;
}

export interface DirNode {
  readonly kind: 'dir';
  readonly ino: number;
  readonly entries: Map<string, FsNode>;
  mtimeMs: number;
}

export type FsNode = FileNode | DirNode;

/** Where a path leads: the directory holding its last name, that name, and what it names (undefined: nothing). */
export interface Located {
  readonly dir: DirNode;
  readonly name: string;
  readonly node: FsNode | undefined;
  /** The path's names from the root, `.`, `..` and empty names resolved (the root: none). */
  readonly names: readonly string[];
  /** The path ends in `/`, `.` or `..`: it must name a directory. */
  readonly dirOnly: boolean;
}

/** A snapshot of a node's `stat`, as node's `Stats` has it. */
export class MemoryStats {
  readonly ino: number;
  readonly size: number;
  readonly nlink: number;
  readonly mode: number;
  readonly mtimeMs: number;
  constructor(node: FsNode) {
    this.ino = node.ino;
    this.size = node.kind === 'file' ? node.size : 0;
    this.nlink = node.kind === 'file' ? node.nlink : 1;
    this.mode = node.kind === 'file' ? 0o100644 : 0o40755;
    this.mtimeMs = node.mtimeMs;
  }
  get mtime(): Date {
    return new Date(this.mtimeMs);
  }
  isFile(): boolean {
    return (this.mode & 0o170000) === 0o100000;
  }
  isDirectory(): boolean {
    return (this.mode & 0o170000) === 0o40000;
  }
  isSymbolicLink(): boolean {
    return false;
  }
}

/** `path`'s names from the root (a relative path starts at the root) and whether it must name a directory. */
function parsePath(path: string): { names: string[]; dirOnly: boolean } {
  const raw = path.split('/');
  const names: string[] = [];
  for (const name of raw) {
    if (name === '..') names.pop();
    else if (name !== '' && name !== '.') names.push(name);
  }
  const last = raw[raw.length - 1];
  return { names, dirOnly: last === '' ? raw.length > 1 : last === '.' || last === '..' };
}

/** `names` begins with `prefix` and is longer. */
const below = (names: readonly string[], prefix: readonly string[]): boolean => names.length > prefix.length && prefix.every((n, i) => names[i] === n);

/** The directory tree of an in-memory file system, and its calls on paths (linux's errors, in linux's order). */
export class MemoryTree {
  private lastIno = 0;
  readonly root: DirNode;
  constructor(readonly now: () => number) {
    this.root = this.newDir();
  }

  newFile(): FileNode {
    return { kind: 'file', ino: ++this.lastIno, bytes: new Uint8Array(0), size: 0, nlink: 1, mtimeMs: this.now() };
  }

  private newDir(): DirNode {
    return { kind: 'dir', ino: ++this.lastIno, entries: new Map(), mtimeMs: this.now() };
  }

  /** Where `path` leads, or the error of a directory on the way missing (ENOENT) or a file (ENOTDIR). */
  locate(path: string): Located | MemoryFsCode {
    if (path === '') return 'ENOENT';
    const { names, dirOnly } = parsePath(path);
    let dir = this.root;
    const last = names.length - 1;
    for (let i = 0; i < last; i++) {
      const next = dir.entries.get(names[i] as string);
      if (next === undefined) return 'ENOENT';
      if (next.kind === 'file') return 'ENOTDIR';
      dir = next;
    }
    if (last < 0) return { dir, name: '', node: dir, names, dirOnly };
    const name = names[last] as string;
    return { dir, name, node: dir.entries.get(name), names, dirOnly };
  }

  /** {@link locate} of `target`, throwing its error as `syscall`'s on `path` (`-> dest`: a link's or a rename's). */
  at(target: string, syscall: string, path = target, dest?: string): Located {
    const where = this.locate(target);
    if (typeof where === 'string') throw fsError(where, syscall, path, dest);
    return where;
  }

  /** The node `target` names (ENOENT, or ENOTDIR where a file is named as a directory); errors as {@link at}'s. */
  find(target: string, syscall: string, path = target, dest?: string): FsNode {
    const { node, dirOnly } = this.at(target, syscall, path, dest);
    if (node === undefined) throw fsError('ENOENT', syscall, path, dest);
    if (dirOnly && node.kind === 'file') throw fsError('ENOTDIR', syscall, path, dest);
    return node;
  }

  /** Records a change of `dir`'s entries. */
  touch(dir: DirNode): void {
    dir.mtimeMs = this.now();
  }

  /** Node's `mkdir`: with `recursive`, the missing directories on the way too, returning the first made. */
  mkdir(path: string, recursive: boolean): string | undefined {
    if (!recursive) {
      const { dir, name, node } = this.at(path, 'mkdir');
      if (node !== undefined) throw fsError('EEXIST', 'mkdir', path);
      dir.entries.set(name, this.newDir());
      this.touch(dir);
      return undefined;
    }
    if (path === '') throw fsError('ENOENT', 'mkdir', path);
    const { names, dirOnly } = parsePath(path);
    let dir = this.root;
    let first: string | undefined;
    for (const [i, name] of names.entries()) {
      const next = dir.entries.get(name);
      // node: EEXIST where the path names a file, ENOTDIR where a file is on the way (or named as a directory)
      if (next?.kind === 'file') throw fsError(i === names.length - 1 && !dirOnly ? 'EEXIST' : 'ENOTDIR', 'mkdir', path);
      if (next !== undefined) dir = next;
      else {
        const made = this.newDir();
        dir.entries.set(name, made);
        this.touch(dir);
        dir = made;
        first ??= `/${names.slice(0, i + 1).join('/')}`;
      }
    }
    return first;
  }

  /** The names in directory `path`, sorted. */
  readdir(path: string): string[] {
    const node = this.find(path, 'scandir');
    if (node.kind === 'file') throw fsError('ENOTDIR', 'scandir', path);
    return [...node.entries.keys()].sort();
  }

  rmdir(path: string): void {
    const { dir, name, node } = this.at(path, 'rmdir');
    if (node === undefined) throw fsError('ENOENT', 'rmdir', path);
    if (node.kind === 'file') throw fsError('ENOTDIR', 'rmdir', path);
    if (node === this.root) throw fsError('EBUSY', 'rmdir', path);
    if (node.entries.size > 0) throw fsError('ENOTEMPTY', 'rmdir', path);
    dir.entries.delete(name);
    this.touch(dir);
  }

  stat(path: string, syscall: 'stat' | 'lstat'): MemoryStats {
    return new MemoryStats(this.find(path, syscall));
  }

  /** Removes the name of a file; its bytes go with its last name and its last open descriptor. */
  unlink(path: string): void {
    const { dir, name, node, dirOnly } = this.at(path, 'unlink');
    if (node === undefined) throw fsError('ENOENT', 'unlink', path);
    if (node.kind === 'dir') throw fsError('EISDIR', 'unlink', path);
    if (dirOnly) throw fsError('ENOTDIR', 'unlink', path);
    dir.entries.delete(name);
    node.nlink--;
    this.touch(dir);
  }

  /** Makes `path` a second name of the file `existing` (EEXIST when `path` exists, EPERM for a directory). */
  link(existing: string, path: string): void {
    const node = this.find(existing, 'link', existing, path);
    const to = this.at(path, 'link', existing, path);
    if (to.node !== undefined) throw fsError('EEXIST', 'link', existing, path);
    if (to.dirOnly) throw fsError('ENOENT', 'link', existing, path);
    if (node.kind === 'dir') throw fsError('EPERM', 'link', existing, path);
    to.dir.entries.set(to.name, node);
    node.nlink++;
    this.touch(to.dir);
  }

  /** Moves `from` to `to` in one step, replacing what `to` names; nothing when both name the same file (POSIX). */
  rename(from: string, to: string): void {
    const a = this.at(from, 'rename', from, to);
    const b = this.at(to, 'rename', from, to);
    if (a.names.length === 0 || b.names.length === 0) throw fsError('EBUSY', 'rename', from, to);
    const moved = a.node;
    if (moved === undefined) throw fsError('ENOENT', 'rename', from, to);
    if (moved.kind === 'file' && (a.dirOnly || b.dirOnly)) throw fsError('ENOTDIR', 'rename', from, to);
    if (below(b.names, a.names)) throw fsError('EINVAL', 'rename', from, to);
    if (below(a.names, b.names)) throw fsError('ENOTEMPTY', 'rename', from, to);
    const replaced = b.node;
    if (moved === replaced) return;
    if (replaced !== undefined) {
      if (moved.kind === 'file' && replaced.kind === 'dir') throw fsError('EISDIR', 'rename', from, to);
      if (moved.kind === 'dir' && replaced.kind === 'file') throw fsError('ENOTDIR', 'rename', from, to);
      if (replaced.kind === 'dir' && replaced.entries.size > 0) throw fsError('ENOTEMPTY', 'rename', from, to);
      if (replaced.kind === 'file') replaced.nlink--;
    }
    b.dir.entries.set(b.name, moved);
    a.dir.entries.delete(a.name);
    this.touch(a.dir);
    this.touch(b.dir);
  }
}
