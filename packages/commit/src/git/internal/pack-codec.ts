import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { createDelta, indexBase } from './delta-encode.js';
import { rightSize } from './right-size.js';
import { objectPaths } from './object-paths.js';
import type { ObjectPath } from './object-paths.js';
import type { DeltaIndex } from './delta-encode.js';
import type { RawObject } from './state.js';
import { isZlibStored, zlibStored } from './zlib-stored.js';

/**
 * Data shorter than this is stored, not deflated, even in a searched pack: two thirds of what a roll-up compresses is
 * under 128 bytes (mean 55: deltas of trees and metadata blobs), which deflate hardly shortens, and each zlib call pays
 * for setting up its state (chained corpus, 300 turns after 1,000 with their roll-ups, alternating with 0, five rounds:
 * 7.47 -> 7.09 ms a turn, median; the objects 1.6 % larger).
 */
const DEFLATE_MIN = 128;

/** An object to pack. */
export interface PackObject extends RawObject {
  readonly oid: string;
  /** How a pack stores it already, when it comes from one: {@link encodePack} copies that entry instead of searching. */
  readonly stored?: StoredEntry;
}

/** A pack entry as stored: its deflated data, the size its header gives, and its delta base when it is a delta. */
export interface StoredEntry {
  readonly data: Buffer;
  readonly size: number;
  readonly base?: string;
}

/** A pack file and its version-2 index, as git writes them under `objects/pack/`. */
export interface EncodedPack {
  /** The pack's checksum (hex): its files are `pack-<checksum>.pack` and `.idx`. */
  readonly checksum: string;
  readonly pack: Buffer;
  readonly idx: Buffer;
}

const TYPE_CODE = { commit: 1, tree: 2, blob: 3, tag: 4 } as const;
const OFS_DELTA = 6;
/** How many earlier objects of the same type are tried as a delta base (git's default window). */
const WINDOW = 10;
/** Longest delta chain (git's default depth). */
const MAX_DEPTH = 50;
/** An object smaller than this is neither searched for a delta nor tried as a base (git's rule: a delta could save next to nothing). */
const MIN_DELTA_SIZE = 50;
/**
 * A delta this many times smaller than its object ends the search for a better base: the rest of the window would
 * save a few bytes at the cost of a delta computed for each (chained corpus import, 1,000 turns: deltas 822 -> 590 ms,
 * the pack 3,831,150 -> 3,832,334 bytes).
 */
const GOOD_DELTA = 8;
/** Leading bytes of a blob that order it among blobs: versions of one item begin alike. */
const BLOB_KEY = 64;
function objectHeader(type: number, size: number): number[] {
  let v = Math.floor(size / 16);
  let first = (type << 4) | (size & 0x0f);
  if (v > 0) first |= 0x80;
  const out = [first];
  while (v > 0) {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v > 0) byte |= 0x80;
    out.push(byte);
  }
  return out;
}

/** The OFS_DELTA distance encoding: big-endian 7-bit groups, each continuation adding one. */
function offsetEncoding(distance: number): number[] {
  let v = distance;
  const out = [v & 0x7f];
  v = Math.floor(v / 128);
  while (v > 0) {
    v -= 1;
    out.unshift(0x80 | (v & 0x7f));
    v = Math.floor(v / 128);
  }
  return out;
}

/**
 * What sorts an object next to the objects it is likely a version of: its path ({@link objectPaths}: the same file
 * or directory in successive commits), else (no commit of the pack reaches it) a key of its first bytes: a tree's
 * first entry's mode and name, a blob's first {@link BLOB_KEY} bytes; nothing for a commit.
 */
function sortKey(o: PackObject, path: string | undefined): Buffer {
  if (path !== undefined) return Buffer.concat([Buffer.of(0), Buffer.from(path)]);
  const c = Buffer.from(o.content.buffer, o.content.byteOffset, o.content.byteLength);
  const nul = o.type === 'tree' ? c.indexOf(0) : -1;
  const head = o.type === 'tree' ? c.subarray(0, nul === -1 ? c.length : nul) : o.type === 'blob' ? c.subarray(0, BLOB_KEY) : Buffer.alloc(0);
  return Buffer.concat([Buffer.of(1), head]);
}

/**
 * Encodes objects as one pack (version 2) and its index (version 2). Objects are sorted by type, then by path or a
 * key of their first bytes ({@link sortKey}), then largest first, then latest first ({@link objectPaths}), and each is stored as a delta ({@link createDelta})
 * against the one of the {@link WINDOW} objects before it that gives the smallest (the search ends at a delta
 * {@link GOOD_DELTA} times smaller than the object), when that is less than half the object (git's rule, a deep base's
 * delta held to less); chains at most {@link MAX_DEPTH} deep; objects under
 * {@link MIN_DELTA_SIZE} bytes take no part in the search. An object that comes with its stored entry (`stored`) keeps it
 * when it is a delta whose base is packed too (its bytes copied, not searched again), and its deflated bytes when it
 * is whole and no delta is found, unless they are stored blocks (then deflated); with `search` false, no delta is
 * searched (nor paths walked) and every entry is stored blocks. Every base precedes its
 * deltas (`OFS_DELTA`), so the pack is self-contained, as git requires on disk.
 */
export function encodePack(objects: readonly PackObject[], search = true): EncodedPack {
  const seen = new Set<string>();
  const unique = objects.filter((o) => (seen.has(o.oid) ? false : (seen.add(o.oid), true)));
  const paths = search ? objectPaths(unique) : new Map<string, ObjectPath>();
  const keys = new Map(unique.map((o) => [o.oid, sortKey(o, paths.get(o.oid)?.path)]));
  const rank = (o: PackObject): number => paths.get(o.oid)?.rank ?? Infinity;
  const order = [...unique].sort(
    (a, b) =>
      TYPE_CODE[a.type] - TYPE_CODE[b.type] ||
      Buffer.compare(keys.get(a.oid) as Buffer, keys.get(b.oid) as Buffer) ||
      b.content.length - a.content.length ||
      rank(a) - rank(b) ||
      (a.oid < b.oid ? -1 : 1),
  );
  const position = new Map(order.map((o, i) => [o.oid, i]));
  const chunks: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(order.length, 8);
  chunks.push(header);
  let offset = 12;
  // by position in `order`: where each object went (−1: not yet), its chain depth, its entry's CRC
  const offsets = new Array<number>(order.length).fill(-1);
  const depth = new Array<number>(order.length).fill(0);
  const crcs = new Array<number>(order.length).fill(0);
  const visiting = new Set<number>();
  // the indexes of the objects tried as bases lately (dropped once the objects are out of every window)
  const indexes = new Map<number, DeltaIndex>();
  // without a search (a turn's pack, searched and deflated when it rolls up) stored, not deflated: the roll-up finds
  // most of a turn's objects a delta, so their deflate would be thrown away (storage bench, median turn 9.5 -> 6.4-7.4 ms
  // at 100 turns, 8.5 -> 7.2-7.3 at 5,000; bytes over `git gc` unchanged); level 1 otherwise, as loose objects, but for
  // data under DEFLATE_MIN bytes
  const compress = (data: Uint8Array): Buffer => (search && data.length >= DEFLATE_MIN ? rightSize(deflateSync(data, { level: 1 })) : zlibStored(data));
  const write = (i: number, head: Buffer, body: Buffer): void => {
    offsets[i] = offset;
    crcs[i] = crc32(body, crc32(head));
    chunks.push(head, body);
    offset += head.length + body.length;
  };
  const deltaHead = (size: number, base: number): Buffer => Buffer.from([...objectHeader(OFS_DELTA, size), ...offsetEncoding(offset - (offsets[base] as number))]);
  // writes the object at `i`, after its stored base when it keeps its stored delta
  const emit = (i: number): void => {
    if ((offsets[i] as number) !== -1) return;
    const o = order[i] as PackObject;
    const stored = o.stored;
    const storedBase = stored?.base === undefined ? undefined : position.get(stored.base);
    if (stored !== undefined && storedBase !== undefined && !visiting.has(storedBase)) {
      visiting.add(i);
      emit(storedBase);
      visiting.delete(i);
      if ((depth[storedBase] as number) < MAX_DEPTH) {
        depth[i] = (depth[storedBase] as number) + 1;
        return write(i, deltaHead(stored.size, storedBase), stored.data);
      }
    }
    let best: { base: number; delta: Buffer } | undefined;
    const searched = search && o.content.length >= MIN_DELTA_SIZE;
    for (let j = i - 1; searched && j >= Math.max(0, i - WINDOW); j--) {
      if (best !== undefined && best.delta.length * GOOD_DELTA <= o.content.length) break;
      const base = order[j] as PackObject;
      // only a base already written: it cannot depend on this object
      if ((offsets[j] as number) === -1 || base.type !== o.type || base.content.length < MIN_DELTA_SIZE || (depth[j] as number) >= MAX_DEPTH) continue;
      // git's limit: half the object (less a name) for a first delta, else the best so far; scaled down for a deep
      // base, so chains branch instead of running MAX_DEPTH long and leaving the next versions without a base
      const refDepth = best === undefined ? 1 : (depth[best.base] as number) + 1;
      const most = best === undefined ? Math.floor(o.content.length / 2) - 20 : best.delta.length;
      const limit = Math.floor((most * (MAX_DEPTH - (depth[j] as number))) / (MAX_DEPTH - refDepth + 1));
      // a delta holds at least the bytes the target has beyond its base
      if (limit <= 0 || o.content.length - base.content.length >= limit) continue;
      let index = indexes.get(j);
      if (index === undefined) indexes.set(j, (index = indexBase(base.content)));
      const delta = createDelta(index, o.content, limit);
      if (delta === null || (best !== undefined && (delta.length > best.delta.length || (delta.length === best.delta.length && (depth[j] as number) + 1 >= refDepth)))) continue;
      best = { base: j, delta };
    }
    if (best !== undefined) {
      depth[i] = (depth[best.base] as number) + 1;
      return write(i, deltaHead(best.delta.length, best.base), compress(best.delta));
    }
    const whole = stored !== undefined && stored.base === undefined && (!search || !isZlibStored(stored.data)) ? stored.data : compress(o.content);
    write(i, Buffer.from(objectHeader(TYPE_CODE[o.type], o.content.length)), whole);
  };
  for (let i = 0; i < order.length; i++) {
    indexes.delete(i - WINDOW - 1);
    emit(i);
  }
  const body = Buffer.concat(chunks);
  const packSum = createHash('sha1').update(body).digest();
  const pack = Buffer.concat([body, packSum]);
  return { checksum: packSum.toString('hex'), pack, idx: encodeIndex(order.map((o, i) => ({ oid: o.oid, offset: offsets[i] as number, crc: crcs[i] as number })), packSum) };
}

/** One entry of a version-2 pack index. */
export interface IndexEntry {
  readonly oid: string;
  readonly offset: number;
  readonly crc: number;
}

/** Where a version-2 index's sorted names start (after the magic, the version and the fan-out table). */
export const INDEX_NAMES = 8 + 256 * 4;

/** How many objects a version-2 index lists (the last fan-out entry). */
export const indexCount = (idx: Buffer): number => idx.readUInt32BE(8 + 255 * 4);

/** The pack offset that a version-2 index of `count` objects gives its `i`-th name (64-bit ones resolved). */
export function indexOffsetAt(idx: Buffer, count: number, i: number): number {
  const off = idx.readUInt32BE(INDEX_NAMES + count * 24 + i * 4);
  return (off & 0x80000000) === 0 ? off : Number(idx.readBigUInt64BE(INDEX_NAMES + count * 28 + (off & 0x7fffffff) * 8));
}

/** The 20-byte name of `a` at byte `aAt` against that of `b` at `bAt`, signed as `Buffer.compare` (a byte loop: `Buffer.compare` with offsets validates them on every call). */
export function compareNames(a: Buffer, aAt: number, b: Buffer, bAt: number): number {
  for (let k = 0; k < 20; k++) {
    const d = (a[aAt + k] as number) - (b[bAt + k] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** The entries a version-2 pack index lists, in name order (64-bit offsets resolved). */
export function indexEntries(idx: Uint8Array): IndexEntry[] {
  const buf = Buffer.from(idx.buffer, idx.byteOffset, idx.byteLength);
  const n = indexCount(buf);
  const out: IndexEntry[] = [];
  for (let i = 0; i < n; i++) {
    const name = INDEX_NAMES + i * 20;
    out.push({ oid: buf.toString('hex', name, name + 20), offset: indexOffsetAt(buf, n, i), crc: buf.readUInt32BE(INDEX_NAMES + n * 20 + i * 4) });
  }
  return out;
}

/** The version-2 pack index: fan-out table, sorted object names, CRC-32s, offsets (64-bit ones past 2 GiB), checksums. */
export function encodeIndex(entries: readonly { oid: string; offset: number; crc: number }[], packSum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const n = sorted.length;
  const large = sorted.filter((e) => e.offset >= 0x80000000);
  const buf = Buffer.alloc(INDEX_NAMES + n * 20 + n * 4 + n * 4 + large.length * 8 + 40);
  buf.writeUInt32BE(0xff744f63, 0);
  buf.writeUInt32BE(2, 4);
  let p = 8;
  let k = 0;
  for (let byte = 0; byte < 256; byte++) {
    while (k < n && parseInt((sorted[k] as { oid: string }).oid.slice(0, 2), 16) <= byte) k++;
    buf.writeUInt32BE(k, p);
    p += 4;
  }
  for (const e of sorted) {
    buf.write(e.oid, p, 'hex');
    p += 20;
  }
  for (const e of sorted) {
    buf.writeUInt32BE(e.crc >>> 0, p);
    p += 4;
  }
  let l = 0;
  for (const e of sorted) {
    buf.writeUInt32BE(e.offset >= 0x80000000 ? (0x80000000 | l++) >>> 0 : e.offset, p);
    p += 4;
  }
  for (const e of large) {
    buf.writeBigUInt64BE(BigInt(e.offset), p);
    p += 8;
  }
  packSum.copy(buf, p);
  p += 20;
  createHash('sha1').update(buf.subarray(0, p)).digest().copy(buf, p);
  return buf;
}
