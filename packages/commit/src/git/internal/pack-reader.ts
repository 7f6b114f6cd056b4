import { CorruptObjectError, GitIoError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { errnoOf, readFileOrNull } from './fs-ops.js';
import { applyDelta } from './delta-apply.js';
import { compareNames, indexCount, indexOffsetAt, INDEX_NAMES } from './pack-codec.js';
import { ENTRY_TYPES, entryHeader, inflateEntry, ofsDistance } from './pack-entry.js';
import { readPackRange } from './pack-blocks.js';
import type { GitState, LoadedPack, PackReadHandle, RawObject } from './state.js';
import { stateOf } from './state.js';

const packDir = (ctx: GitContext): string => `${ctx.gitdir}/objects/pack`;

async function listIndexes(ctx: GitContext): Promise<string[]> {
  try {
    return (await ctx.fs.promises.readdir(packDir(ctx))).map(String).filter((f) => /^pack-[0-9a-f]{40}\.idx$/u.test(f)).map((f) => f.slice(0, -4));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return [];
    throw new GitIoError('readdir', packDir(ctx), err);
  }
}

/** A pack's index file, or null when it is gone; concurrent listings (the first reads of a fresh context) share one read. */
async function readIndex(ctx: GitContext, name: string): Promise<Uint8Array | null> {
  const reads = stateOf(ctx).indexReads;
  let read = reads.get(name);
  if (read === undefined) {
    read = readFileOrNull(ctx, `${packDir(ctx)}/${name}.idx`).finally(() => reads.delete(name));
    reads.set(name, read);
  }
  return read;
}

/**
 * Re-reads the list of packs (one `readdir`): new ones are loaded (their index), removed ones forgotten. True when the
 * list changed (a pack appeared or went, or an index went between the listing and its read).
 */
export async function refresh(ctx: GitContext): Promise<boolean> {
  const state = stateOf(ctx);
  const names = await listIndexes(ctx);
  let changed = false;
  for (const name of [...state.packs.keys()]) {
    if (names.includes(name)) continue;
    state.packs.delete(name);
    changed = true;
  }
  const fresh = names.filter((name) => !state.packs.has(name));
  // the new indexes are read at once (a fresh context lists every pack), in listing order into the pack list
  const loaded = await Promise.all(fresh.map(async (name) => readIndex(ctx, name)));
  fresh.forEach((name, i) => {
    changed = true;
    const bytes = loaded[i];
    if (bytes === null || bytes === undefined || state.packs.has(name)) return;
    const idx = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (idx.length < 1072 || idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) throw new CorruptObjectError(`pack index ${name}.idx`, 'not a version-2 pack index');
    state.packs.set(name, { name, idx, count: indexCount(idx), pack: undefined });
  });
  return changed;
}

/** The offset of `oid` in the pack, by binary search in its index's sorted names; undefined when absent. */
function findOffset(p: LoadedPack, oid: string): number | undefined {
  const want = Buffer.from(oid, 'hex');
  const first = want[0] as number;
  let lo = first === 0 ? 0 : p.idx.readUInt32BE(8 + (first - 1) * 4);
  let hi = p.idx.readUInt32BE(8 + first * 4);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const cmp = compareNames(p.idx, INDEX_NAMES + mid * 20, want, 0);
    if (cmp === 0) return indexOffsetAt(p.idx, p.count, mid);
    if (cmp > 0) hi = mid;
    else lo = mid + 1;
  }
  return undefined;
}

/** True when a pack loaded so far lists `oid` (no I/O: the indexes are in memory); only the packs named, when given. */
export function inLoadedPacks(ctx: GitContext, oid: string, names?: readonly string[]): boolean {
  const packs = stateOf(ctx).packs;
  for (const p of names === undefined ? packs.values() : names.map((name) => packs.get(name))) {
    if (p !== undefined && findOffset(p, oid) !== undefined) return true;
  }
  return false;
}

/** A pack's bytes, read once and kept with its index (concurrent first reads share the one read). */
async function loadPack(ctx: GitContext, p: LoadedPack): Promise<Buffer> {
  if (p.pack !== undefined) return p.pack;
  p.loading ??= readPack(ctx, p.name).finally(() => {
    p.loading = undefined;
  });
  p.pack = await p.loading;
  return p.pack;
}

/** The whole pack file `name`; a gone pack is a GitIoError with errno ENOENT (another pack holds its objects, see findInPacks). */
export async function readPack(ctx: GitContext, name: string): Promise<Buffer> {
  const bytes = await readFileOrNull(ctx, `${packDir(ctx)}/${name}.pack`);
  if (bytes === null) throw new GitIoError('read', `${packDir(ctx)}/${name}.pack`, Object.assign(new Error('the pack is gone'), { code: 'ENOENT' }));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A pack of at most this many objects that this context writes keeps its bytes in memory (its delta chains resolve
 * there); a pack read from storage is read entry by entry whatever its size, so that a cold start reads the objects
 * it needs, not the history the packs hold.
 */
export const WHOLE_PACK_OBJECTS = 4096;
/** First read of an entry: its header and, for most entries, all of its deflated bytes. */
const FIRST_READ = 4 * 1024;

/** The entry's size field and the length of everything before its deflated data (a delta's base reference included). */
function headerLength(bytes: Buffer, at: number): { size: number; length: number } {
  const { type, size, next } = entryHeader(bytes, at);
  const data = type === 7 ? next + 20 : type === 6 ? ofsDistance(bytes, next).next : next;
  return { size, length: data - at };
}

/** A pack file open for one read, and what to do once the read is done. */
interface PackFileUse {
  readonly handle: PackReadHandle;
  done(): Promise<void>;
}

/** The pack file open for reading: read in synchronous calls where the fs has them (see FsLike.readSync). */
async function openForRead(ctx: GitContext, path: string): Promise<PackReadHandle> {
  const { openSync, readSync, closeSync } = ctx.fs;
  try {
    if (openSync === undefined || readSync === undefined || closeSync === undefined) return await ctx.fs.promises.open(path, 'r');
    const fd = openSync.call(ctx.fs, path, 'r');
    return {
      read: async (buffer, offset, length, position) => ({ bytesRead: readSync.call(ctx.fs, fd, buffer, offset, length, position) }),
      close: async () => closeSync.call(ctx.fs, fd),
    };
  } catch (err) {
    throw new GitIoError('read', path, err);
  }
}

const sharing = (state: GitState): boolean => state.batchDepth > 0 || state.packReads > 0;

/**
 * The pack file for a read at a position: the handle of that pack shared by the reads of the open batches and object
 * reads (opened by the first, closed by {@link closePackFiles} once none is open, or by its last user after that).
 */
async function usePackFile(ctx: GitContext, p: LoadedPack): Promise<PackFileUse> {
  const state = stateOf(ctx);
  const path = `${packDir(ctx)}/${p.name}.pack`;
  let shared = state.packFiles.get(p.name);
  if (shared === undefined) {
    shared = { handle: openForRead(ctx, path), users: 0 };
    state.packFiles.set(p.name, shared);
  }
  const file = shared;
  file.users++;
  let handle: PackReadHandle;
  try {
    handle = await file.handle;
  } catch (err) {
    file.users--;
    if (state.packFiles.get(p.name) === file) state.packFiles.delete(p.name);
    throw err;
  }
  return {
    handle,
    done: async () => {
      file.users--;
      if (file.users === 0 && !sharing(state) && state.packFiles.get(p.name) === file) {
        state.packFiles.delete(p.name);
        await handle.close().catch(() => undefined);
      }
    },
  };
}

/** Closes the pack files reads opened once no batch and no object read is open (a file in use closes after its last read). */
export async function closePackFiles(ctx: GitContext): Promise<void> {
  const state = stateOf(ctx);
  if (sharing(state)) return;
  for (const [name, file] of [...state.packFiles]) {
    if (file.users > 0) continue;
    state.packFiles.delete(name);
    const handle = await file.handle.catch(() => undefined);
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The bytes of the pack from `offset` on, enough for the entry there: the loaded pack when it is in memory, else
 * read at that position (its header, then at most zlib's bound for its size) through the repository's kept blocks
 * ({@link readPackRange}), so that reading a few objects of a pack does not read the pack. Null when the pack is to
 * be read whole (a file system that cannot read at a position).
 */
async function entryWindow(ctx: GitContext, p: LoadedPack, offset: number): Promise<{ bytes: Buffer; at: number; end: number } | null> {
  if (p.pack !== undefined) return { bytes: p.pack, at: offset, end: p.pack.length - 20 };
  const { handle, done } = await usePackFile(ctx, p);
  try {
    const readAt = handle.read?.bind(handle);
    if (readAt === undefined) return null;
    const read = (length: number): Promise<Buffer> => readPackRange(stateOf(ctx).packBlocks, p.name, readAt, offset, length);
    let bytes = await read(FIRST_READ);
    const { size, length } = headerLength(bytes, 0);
    // deflate's worst case: the data stored, 5 bytes per block, plus the zlib header and checksum
    const bound = length + size + 5 * Math.ceil(size / 16_383 + 1) + 6;
    if (bound > bytes.length && bytes.length === FIRST_READ) bytes = await read(bound);
    return { bytes, at: 0, end: bytes.length };
  } catch (err) {
    throw new GitIoError('read', `${packDir(ctx)}/${p.name}.pack`, err);
  } finally {
    await done();
  }
}

/** Bytes of delta bases a pack keeps decoded (git's delta base cache, per pack): past it, they are dropped and kept anew. */
const DELTA_BASE_BYTES = 4 * 1024 * 1024;

/** The entry at `offset` as a delta base: decoded once, then kept, so that reads down a chain (successive versions of a tree or an item) do not decode its bases again each. */
async function baseAt(ctx: GitContext, p: LoadedPack, offset: number, readBase: (oid: string) => Promise<RawObject>): Promise<RawObject> {
  const kept = p.bases?.get(offset);
  if (kept !== undefined) return kept;
  const base = await entryAt(ctx, p, offset, readBase);
  if (p.bases === undefined || (p.baseBytes ?? 0) + base.content.length > DELTA_BASE_BYTES) {
    p.bases = new Map();
    p.baseBytes = 0;
  }
  p.bases.set(offset, base);
  p.baseBytes = (p.baseBytes ?? 0) + base.content.length;
  return base;
}

/** Decodes the entry at `offset` (resolving delta chains); `readBase` reads a REF_DELTA base by oid. */
async function entryAt(ctx: GitContext, p: LoadedPack, offset: number, readBase: (oid: string) => Promise<RawObject>): Promise<RawObject> {
  let window = await entryWindow(ctx, p, offset);
  if (window === null) {
    const whole = await loadPack(ctx, p);
    window = { bytes: whole, at: offset, end: whole.length - 20 };
  }
  const pack = window.bytes;
  const where = `${p.name}.pack@${offset}`;
  const end = window.end;
  if (offset < 12 || window.at >= end) throw new CorruptObjectError(where, 'offset outside the pack');
  const { type, size, next: i } = entryHeader(pack, window.at);
  const inflate = (at: number): Buffer => inflateEntry(pack, at, end, size, where);
  if (type >= 1 && type <= 4) {
    const content = inflate(i);
    if (content.length !== size) throw new CorruptObjectError(where, 'size mismatch');
    return { type: ENTRY_TYPES[type] as RawObject['type'], content };
  }
  if (type === 6) {
    const { distance, next } = ofsDistance(pack, i);
    const base = await baseAt(ctx, p, offset - distance, readBase);
    return { type: base.type, content: applyDelta(base.content, inflate(next), where) };
  }
  if (type === 7) {
    const base = await readBase(pack.toString('hex', i, i + 20));
    return { type: base.type, content: applyDelta(base.content, inflate(i + 20), where) };
  }
  throw new CorruptObjectError(where, `unknown entry type ${type}`);
}

/**
 * Reads an object from the repository's packs (version-2 indexes; `OFS_DELTA` and `REF_DELTA` entries resolved), or
 * null when no pack holds it. The pack list is read again when an object is missing, so packs written (or rolled up)
 * by another process are found, and again for as long as it changes under the reader: a pack removed by another
 * process's roll-up proves that a newer pack holds its objects, and a listing taken while another process renames a
 * new pack in and removes old ones may show neither (readdir is not atomic); on a loaded machine several roll-ups can
 * pass during one read. The object is missing only when a listing equal to the one before does not hold it (a pack
 * that vanished before, such as an index a crash left without its pack, does not count twice).
 */
export async function readFromPacks(ctx: GitContext, oid: string, readBase: (oid: string) => Promise<RawObject>): Promise<RawObject | null> {
  const state = stateOf(ctx);
  state.packReads++;
  try {
    return await findInPacks(ctx, oid, readBase);
  } finally {
    state.packReads--;
    await closePackFiles(ctx);
  }
}

async function findInPacks(ctx: GitContext, oid: string, readBase: (oid: string) => Promise<RawObject>): Promise<RawObject | null> {
  const state = stateOf(ctx);
  const vanished = new Set<string>();
  for (let pass = 0, again = true; again; pass++) {
    again = pass === 0;
    if ((pass > 0 || state.packs.size === 0) && (await refresh(ctx)) && pass > 0) again = true;
    for (const p of state.packs.values()) {
      const offset = findOffset(p, oid);
      if (offset === undefined) continue;
      try {
        return await entryAt(ctx, p, offset, readBase);
      } catch (err) {
        // a pack rolled up meanwhile (or an index left without its pack by a crash): another pack holds the object
        if (!(err instanceof GitIoError && err.data['errno'] === 'ENOENT')) throw err;
        if (!vanished.has(p.name)) again = true;
        vanished.add(p.name);
      }
    }
  }
  return null;
}
