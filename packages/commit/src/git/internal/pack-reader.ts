import { CorruptObjectError, GitIoError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { errnoOf, readFileOrNull } from './fs-ops.js';
import { applyDelta } from './delta-apply.js';
import { ENTRY_TYPES, entryHeader, inflateEntry, ofsDistance } from './pack-entry.js';
import { readPackRange } from './pack-blocks.js';
import { closePackFiles, goneError, isGone, packDir, usePackFile } from './pack-files.js';
import { offsetIn, openIndex } from './pack-index.js';
import type { GitState, LoadedPack, RawObject } from './state.js';
import { stateOf } from './state.js';

async function listIndexes(ctx: GitContext): Promise<string[]> {
  try {
    return (await ctx.fs.promises.readdir(packDir(ctx))).map(String).filter((f) => /^pack-[0-9a-f]{40}\.idx$/u.test(f)).map((f) => f.slice(0, -4));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return [];
    throw new GitIoError('readdir', packDir(ctx), err);
  }
}

/**
 * Re-reads the list of packs (one `readdir`): new ones are loaded (their index's fan-out table, see `openIndex`),
 * removed ones forgotten. True when the list changed (a pack appeared or went, or an index went between the listing
 * and its read).
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
  // the new indexes are opened at once (a fresh context lists every pack), in listing order into the pack list
  const loaded = await Promise.all(fresh.map(async (name) => openIndex(ctx, name)));
  fresh.forEach((name, i) => {
    changed = true;
    const p = loaded[i];
    if (p === null || p === undefined || state.packs.has(name)) return;
    state.packs.set(name, p);
  });
  return changed;
}

/** The packs loaded so far (only those named, when given), the one the last lookup found its object in first. */
function* lookupOrder(state: GitState, names?: readonly string[]): Generator<LoadedPack> {
  const last = state.lastFound;
  const first = last !== undefined && state.packs.get(last.name) === last && (names === undefined || names.includes(last.name)) ? last : undefined;
  if (first !== undefined) yield first;
  for (const p of names === undefined ? state.packs.values() : names.map((name) => state.packs.get(name))) {
    if (p !== undefined && p !== first) yield p;
  }
}

/** The 20-byte name of `oid`. */
const nameOf = (oid: string): Buffer => Buffer.from(oid, 'hex');

/**
 * True when a pack loaded so far lists `oid` (only the packs named, when given). No listing is read, unless a listed
 * index went meanwhile (another process rolled its pack up): then the packs are listed again, since a newer pack
 * holds what it held.
 */
export async function inLoadedPacks(ctx: GitContext, oid: string, names?: readonly string[]): Promise<boolean> {
  const state = stateOf(ctx);
  const want = nameOf(oid);
  let vanished = false;
  // the index files its lookups open are shared by them, and closed at the end, as an object read's are
  state.packReads++;
  try {
    for (const p of lookupOrder(state, names)) {
      try {
        if ((await offsetIn(ctx, p, want)) === undefined) continue;
      } catch (err) {
        if (!isGone(err)) throw err;
        vanished = true;
        continue;
      }
      state.lastFound = p;
      return true;
    }
  } finally {
    state.packReads--;
    await closePackFiles(ctx);
  }
  return vanished && names === undefined && (await refresh(ctx)) ? inLoadedPacks(ctx, oid) : false;
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
  if (bytes === null) throw goneError(ctx, `${name}.pack`);
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

/**
 * The bytes of the pack from `offset` on, enough for the entry there: the loaded pack when it is in memory, else
 * read at that position (its header, then at most zlib's bound for its size) through the repository's kept blocks
 * ({@link readPackRange}), so that reading a few objects of a pack does not read the pack. Null when the pack is to
 * be read whole (a file system that cannot read at a position).
 */
async function entryWindow(ctx: GitContext, p: LoadedPack, offset: number): Promise<{ bytes: Buffer; at: number; end: number } | null> {
  if (p.pack !== undefined) return { bytes: p.pack, at: offset, end: p.pack.length - 20 };
  const { handle, done } = await usePackFile(ctx, `${p.name}.pack`);
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
 * that vanished before, such as an index a crash left without its pack, does not count twice). Without `relist`, only
 * the packs listed so far are read (one pass, no listing: null when none holds it, none is listed yet, or one vanished
 * meanwhile).
 */
export async function readFromPacks(ctx: GitContext, oid: string, readBase: (oid: string) => Promise<RawObject>, relist = true): Promise<RawObject | null> {
  const state = stateOf(ctx);
  state.packReads++;
  try {
    return await findInPacks(ctx, oid, readBase, relist);
  } finally {
    state.packReads--;
    await closePackFiles(ctx);
  }
}

async function findInPacks(ctx: GitContext, oid: string, readBase: (oid: string) => Promise<RawObject>, relist: boolean): Promise<RawObject | null> {
  const state = stateOf(ctx);
  const want = nameOf(oid);
  const vanished = new Set<string>();
  for (let pass = 0, again = relist; pass === 0 || again; pass++) {
    again = relist && pass === 0;
    if (relist && (pass > 0 || state.packs.size === 0) && (await refresh(ctx)) && pass > 0) again = true;
    for (const p of lookupOrder(state)) {
      try {
        const offset = await offsetIn(ctx, p, want);
        if (offset === undefined) continue;
        const object = await entryAt(ctx, p, offset, readBase);
        state.lastFound = p;
        return object;
      } catch (err) {
        // a pack rolled up meanwhile (or an index left without its pack by a crash): another pack holds the object
        if (!isGone(err)) throw err;
        if (relist && !vanished.has(p.name)) again = true;
        vanished.add(p.name);
      }
    }
  }
  return null;
}
