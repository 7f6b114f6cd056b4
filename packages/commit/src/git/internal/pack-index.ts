import { CorruptObjectError, GitIoError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { readFileOrNull } from './fs-ops.js';
import { compareNames, indexCount, indexOffsetAt, INDEX_NAMES } from './pack-codec.js';
import { goneError, isGone, packDir, usePackFile } from './pack-files.js';
import type { LoadedPack } from './state.js';
import { stateOf } from './state.js';

const MAGIC = 0xff744f63;
const indexFile = (name: string): string => `${name}.idx`;
const indexPath = (ctx: GitContext, name: string): string => `${packDir(ctx)}/${indexFile(name)}`;
const corrupt = (name: string, why: string): CorruptObjectError => new CorruptObjectError(`pack index ${indexFile(name)}`, why);

function checkHead(name: string, head: Buffer): void {
  if (head.length < INDEX_NAMES || head.readUInt32BE(0) !== MAGIC || head.readUInt32BE(4) !== 2) throw corrupt(name, 'not a version-2 pack index');
}

/** A pack as a fresh listing loads it: its whole index, read (or written) by this context. */
export function wholePack(name: string, idx: Buffer): LoadedPack {
  if (idx.length < INDEX_NAMES + 40) throw corrupt(name, 'not a version-2 pack index');
  checkHead(name, idx);
  return { name, head: idx, idx, count: indexCount(idx), pack: undefined };
}

/** `length` bytes of the index of pack `name` at `position`, through the file handle its reads share; null when the fs cannot read at a position. */
async function readIndexAt(ctx: GitContext, name: string, position: number, length: number): Promise<Buffer | null> {
  let use;
  try {
    use = await usePackFile(ctx, indexFile(name));
  } catch (err) {
    if (isGone(err)) throw goneError(ctx, indexFile(name));
    throw err;
  }
  try {
    const read = use.handle.read?.bind(use.handle);
    if (read === undefined) return null;
    const buf = Buffer.allocUnsafe(length);
    let n = 0;
    while (n < length) {
      const { bytesRead } = await read(buf, n, length - n, position + n);
      if (bytesRead === 0) throw corrupt(name, `it ends before byte ${position + length}, which its ${position === 0 ? 'header' : 'fan-out table'} implies`);
      n += bytesRead;
    }
    return buf;
  } catch (err) {
    if (err instanceof CorruptObjectError) throw err;
    throw new GitIoError('read', indexPath(ctx, name), err);
  } finally {
    await use.done();
  }
}

/**
 * The pack `name` as a listing loads it, or null when its index is gone: the index's header and fan-out table only
 * (1,032 bytes), its names then read a fan-out bucket at a time as lookups need them, as git's map of an index is
 * touched — so a cold start that reads a few objects does not read every index whole; where the fs cannot read at a
 * position, the whole index.
 */
export async function openIndex(ctx: GitContext, name: string): Promise<LoadedPack | null> {
  let head: Buffer | null;
  try {
    head = await readIndexAt(ctx, name, 0, INDEX_NAMES);
  } catch (err) {
    if (isGone(err)) return null;
    throw err;
  }
  if (head === null) {
    const bytes = await readIndexWhole(ctx, name);
    return bytes === null ? null : wholePack(name, bytes);
  }
  checkHead(name, head);
  return { name, head, idx: undefined, count: indexCount(head), pack: undefined };
}

/** A pack's index file, or null when it is gone; concurrent reads share one. */
async function readIndexWhole(ctx: GitContext, name: string): Promise<Buffer | null> {
  const reads = stateOf(ctx).indexReads;
  let read = reads.get(name);
  if (read === undefined) {
    read = readFileOrNull(ctx, indexPath(ctx, name)).finally(() => reads.delete(name));
    reads.set(name, read);
  }
  const bytes = await read;
  return bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The whole index of `p` (what a roll-up copies or decodes its pack by), read once and kept; a GitIoError with errno ENOENT when it is gone. */
export async function wholeIndex(ctx: GitContext, p: LoadedPack): Promise<Buffer> {
  if (p.idx !== undefined) return p.idx;
  const bytes = await readIndexWhole(ctx, p.name);
  if (bytes === null) throw goneError(ctx, indexFile(p.name));
  p.idx = wholePack(p.name, bytes).idx;
  p.buckets = undefined;
  return p.idx as Buffer;
}

/** The first position in `names` (sorted 20-byte names from `at`, `n` of them) holding `want`, or -1. */
function search(names: Buffer, at: number, n: number, want: Buffer): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const cmp = compareNames(names, at + mid * 20, want, 0);
    if (cmp === 0) return mid;
    if (cmp > 0) hi = mid;
    else lo = mid + 1;
  }
  return -1;
}

/**
 * The offset in pack `p` of the object named `want` (20 bytes), or undefined when the pack does not hold it: a binary
 * search of its fan-out bucket, read from the index file (and kept) unless the index is whole. A GitIoError with errno
 * ENOENT when the index is gone (another process rolled the pack up: a newer pack holds its objects).
 */
export async function offsetIn(ctx: GitContext, p: LoadedPack, want: Buffer): Promise<number | undefined> {
  const first = want[0] as number;
  const lo = first === 0 ? 0 : p.head.readUInt32BE(8 + (first - 1) * 4);
  const hi = p.head.readUInt32BE(8 + first * 4);
  if (hi <= lo) {
    if (hi < lo) throw corrupt(p.name, 'its fan-out table decreases');
    return undefined;
  }
  if (p.idx !== undefined) {
    const i = search(p.idx, INDEX_NAMES + lo * 20, hi - lo, want);
    return i < 0 ? undefined : indexOffsetAt(p.idx, p.count, lo + i);
  }
  let names = p.buckets?.get(first) ?? null;
  if (names === null) {
    names = await readIndexAt(ctx, p.name, INDEX_NAMES + lo * 20, (hi - lo) * 20);
    if (names !== null) (p.buckets ??= new Map()).set(first, names);
  }
  const i = names === null ? -1 : search(names, 0, hi - lo, want);
  if (i < 0) return names === null ? wholeOffset(ctx, p, want) : undefined;
  const small = await readIndexAt(ctx, p.name, INDEX_NAMES + p.count * 24 + (lo + i) * 4, 4);
  if (small === null) return wholeOffset(ctx, p, want);
  const off = small.readUInt32BE(0);
  if ((off & 0x80000000) === 0) return off;
  const large = await readIndexAt(ctx, p.name, INDEX_NAMES + p.count * 28 + (off & 0x7fffffff) * 8, 8);
  return large === null ? wholeOffset(ctx, p, want) : Number(large.readBigUInt64BE(0));
}

/** {@link offsetIn} through the whole index (a file system that stopped reading at a position). */
async function wholeOffset(ctx: GitContext, p: LoadedPack, want: Buffer): Promise<number | undefined> {
  await wholeIndex(ctx, p);
  return offsetIn(ctx, p, want);
}
