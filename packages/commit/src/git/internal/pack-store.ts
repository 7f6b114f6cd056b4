import type { GitContext } from '../git-context.js';
import { GitIoError } from '../errors.js';
import { errnoOf, unlinkFile, writeFilesAtomic } from './fs-ops.js';
import { inLoadedPacks, readPack, refresh, WHOLE_PACK_OBJECTS } from './pack-reader.js';
import { closePackFiles, goneError, packDir } from './pack-files.js';
import { wholeIndex, wholePack } from './pack-index.js';
import { writeJoinedPack } from './pack-join.js';
import type { PackPart } from './pack-join.js';
import { readObjectInternal } from './object-io.js';
import { decodePack } from './pack-decode.js';
import { encodePack, indexEntries } from './pack-codec.js';
import type { EncodedPack, PackObject } from './pack-codec.js';
import { rememberExisting, stateOf } from './state.js';

/** Packs roll up while the next one holds fewer than this many times the objects rolled so far (git's default). */
const FACTOR = 2;
/** Loose objects written since the last maintenance that make it pack them too. */
const LOOSE_LIMIT = 256;
/**
 * An automatic roll-up waits until it would merge at least this many packs: a roll-up copies every object it
 * merges and writes a new pack, so rolling two one-turn packs up after every other turn would copy each object
 * O(log n) times, one more pack file written (and fsynced) per turn; waiting for eight copies each one O(log n / 3)
 * times. The small packs waiting keep the count of packs at O(log n) + 8.
 */
const MIN_ROLL = 8;
/**
 * Objects a roll-up decodes and delta-searches again at most (its smallest packs): a one-turn pack holds no delta
 * against an earlier turn's objects, so its objects are searched again as their packs roll up, up to packs of this
 * size; larger ones are copied. Each object is searched O(log REDELTA_LIMIT) times, a roll-up's search is bounded.
 * 512 rather than 1,024: the largest roll-ups' search is what a turn's p95 is made of (storage bench, 100 turns: p95
 * CPU 137–147 -> 91–92 ms) for 2–3 % more bytes (1.125 -> 1.139 of `git gc` at 100 turns, 1.06 -> 1.084 at 1,000).
 */
const REDELTA_LIMIT = 512;
/** A batch of fewer objects (a turn's) is packed without a delta search ({@link writePack}). */
const SEARCH_MIN = 256;
/** Batches that may end without starting maintenance (`rollUp` false) before one starts it anyway. */
const DEFER_LIMIT = 16;

/** A pack file of the repository. */
export interface PackInfo {
  /** `pack-<checksum>` */
  readonly name: string;
  readonly count: number;
}

/** What a maintenance run did. */
export interface MaintenanceResult {
  /** Packs rolled into the new pack. */
  readonly packsMerged: number;
  /** Loose objects moved into it (and removed). */
  readonly looseMerged: number;
  /** Objects of the new pack, or 0 when nothing was written. */
  readonly objects: number;
  /** Packs after the run. */
  readonly packs: number;
}

async function readdirOrEmpty(ctx: GitContext, dir: string): Promise<string[]> {
  try {
    return (await ctx.fs.promises.readdir(dir)).map(String);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return [];
    throw new GitIoError('readdir', dir, err);
  }
}

async function removeFile(ctx: GitContext, path: string): Promise<void> {
  try {
    await unlinkFile(ctx, path);
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT') throw new GitIoError('unlink', path, err);
  }
}

/** Writes an encoded pack and its index (both at once, then renamed pack first: a reader looks for the index); returns its name. */
export async function storePack(ctx: GitContext, encoded: EncodedPack): Promise<string> {
  const { checksum, pack, idx } = encoded;
  const dir = packDir(ctx);
  const name = `pack-${checksum}`;
  await writeFilesAtomic(ctx, dir, [
    { target: `${dir}/${name}.pack`, data: pack },
    { target: `${dir}/${name}.idx`, data: idx },
  ]);
  const state = stateOf(ctx);
  const loaded = wholePack(name, idx);
  // a large pack is read entry by entry, as one another process wrote: its bytes are not kept
  if (loaded.count <= WHOLE_PACK_OBJECTS) loaded.pack = pack;
  state.packs.set(name, loaded);
  for (const e of indexEntries(idx)) rememberExisting(state, e.oid);
  return name;
}

/**
 * Encodes objects as a pack and writes it; returns its name, or null for no objects. Deltas are searched only among
 * {@link SEARCH_MIN} objects or more: a turn's objects are new versions of objects in other packs, not of one
 * another, and the roll-up that merges its pack searches them with those.
 */
export async function writePack(ctx: GitContext, objects: readonly PackObject[]): Promise<string | null> {
  return objects.length === 0 ? null : storePack(ctx, encodePack(objects, objects.length >= SEARCH_MIN));
}

/** Every pack of the repository with its object count (one `readdir`; an index is read once per process). */
export async function listPacks(ctx: GitContext): Promise<PackInfo[]> {
  await refresh(ctx);
  return [...stateOf(ctx).packs.values()].map((p) => ({ name: p.name, count: p.count }));
}

/** Loose object files: `objects/xx/<38 hex>`. */
async function listLoose(ctx: GitContext): Promise<{ oid: string; file: string }[]> {
  const out: { oid: string; file: string }[] = [];
  for (const dir of await readdirOrEmpty(ctx, `${ctx.gitdir}/objects`)) {
    if (!/^[0-9a-f]{2}$/u.test(dir)) continue;
    for (const f of await readdirOrEmpty(ctx, `${ctx.gitdir}/objects/${dir}`)) {
      if (/^[0-9a-f]{38}$/u.test(f)) out.push({ oid: `${dir}${f}`, file: `${ctx.gitdir}/objects/${dir}/${f}` });
    }
  }
  return out;
}

/**
 * The packs to roll up, git's geometric rule: from the largest pack down, the packs stay while each holds at least
 * {@link FACTOR} times the next smaller one; below the first break every pack is rolled up, and the roll-up then takes
 * each next pack that holds fewer than {@link FACTOR} times what it has gathered.
 */
export function packsToRollUp(packs: readonly PackInfo[], loose: number): PackInfo[] {
  const sorted = [...packs].sort((a, b) => a.count - b.count || (a.name < b.name ? -1 : 1));
  let split = 0;
  for (let i = sorted.length - 1; i > 0; i--) {
    if ((sorted[i] as PackInfo).count < FACTOR * (sorted[i - 1] as PackInfo).count) {
      split = i;
      break;
    }
  }
  let gathered = loose + sorted.slice(0, split).reduce((n, p) => n + p.count, 0);
  while (split < sorted.length && (sorted[split] as PackInfo).count < FACTOR * gathered) gathered += (sorted[split++] as PackInfo).count;
  return sorted.slice(0, split);
}

/** The whole index of the listed pack `name`; a GitIoError with errno ENOENT when it is gone. */
async function indexOf(ctx: GitContext, name: string): Promise<Buffer> {
  const p = stateOf(ctx).packs.get(name);
  if (p === undefined) throw goneError(ctx, `${name}.idx`);
  return wholeIndex(ctx, p);
}

/** Every object of a pack of the repository, decoded in one pass (the loaded bytes, else the file read whole); with its stored entry when `keep`. */
async function packObjects(ctx: GitContext, name: string, keep: boolean): Promise<PackObject[]> {
  const bytes = stateOf(ctx).packs.get(name)?.pack ?? (await readPack(ctx, name));
  return decodePack(bytes, await indexOf(ctx, name), name, (oid) => readObjectInternal(ctx, oid), keep);
}

/**
 * The packs a roll-up decodes and packs again with a delta search: the smallest, while they hold at most
 * {@link REDELTA_LIMIT} objects together or were written without a search (fewer than {@link SEARCH_MIN} objects: a
 * turn's, its entries stored, not deflated, so never copied as they are), and only when that is two packs or more.
 */
export function packsToRedelta(packs: readonly PackInfo[]): PackInfo[] {
  const sorted = [...packs].sort((a, b) => a.count - b.count || (a.name < b.name ? -1 : 1));
  let total = 0;
  let n = 0;
  for (const p of sorted) {
    if (p.count >= SEARCH_MIN && total + p.count > REDELTA_LIMIT) break;
    total += p.count;
    n++;
  }
  return n < 2 ? [] : sorted.slice(0, n);
}

/**
 * The packs and the loose objects as one new pack: the small packs ({@link packsToRedelta}; none when `copyAll`)
 * and the loose objects decoded and encoded again, so that the versions of an object written by successive turns
 * become deltas of one another; the larger packs' entries copied, not decoded, streamed to the new pack's file. What
 * an incremental roll-up costs is a delta search over a bounded number of objects and a copy of the bytes, not a
 * delta search over the repository, nor the large packs in memory. Null when two of the packs hold the same object.
 */
async function joinPacks(ctx: GitContext, packs: readonly PackInfo[], loose: readonly { oid: string }[], copyAll: boolean): Promise<string | null> {
  const redelta = copyAll ? [] : packsToRedelta(packs);
  const parts: PackPart[] = [];
  for (const p of packs) if (!redelta.includes(p)) parts.push({ from: ctx, name: p.name, idx: await indexOf(ctx, p.name) });
  const names = packs.map((p) => p.name);
  const fresh: PackObject[] = [];
  for (const p of redelta) fresh.push(...(await packObjects(ctx, p.name, true)));
  for (const l of loose) if (!(await inLoadedPacks(ctx, l.oid, names))) fresh.push({ oid: l.oid, ...(await readObjectInternal(ctx, l.oid)) });
  if (fresh.length === 0) return (await writeJoinedPack(ctx, parts))?.name ?? null;
  const encoded = encodePack(fresh);
  if (parts.length === 0) return storePack(ctx, encoded);
  return (await writeJoinedPack(ctx, [...parts, encoded]))?.name ?? null;
}

/** How a roll-up packs: `copy` every pack's entries as they are, `incremental` as {@link joinPacks} does, `full` a delta search over every object. */
type RollMode = 'copy' | 'incremental' | 'full';

async function rollUp(ctx: GitContext, packs: readonly PackInfo[], loose: readonly { oid: string; file: string }[], mode: RollMode): Promise<MaintenanceResult> {
  const state = stateOf(ctx);
  // full (gc), or packs that share an object: every object decoded and packed again with a fresh delta search
  let written = mode === 'full' ? null : await joinPacks(ctx, packs, loose, mode === 'copy');
  if (written === null) {
    const objects: PackObject[] = [];
    // one by one: spread into push, a pack of a long session (~300,000 objects) overflows the call stack
    for (const p of packs) for (const o of await packObjects(ctx, p.name, false)) objects.push(o);
    for (const l of loose) objects.push({ oid: l.oid, ...(await readObjectInternal(ctx, l.oid)) });
    written = objects.length === 0 ? null : await storePack(ctx, encodePack(objects));
  }
  // the new pack holds every object: the old files go, each index before its pack (a failure stops the run, so no
  // index is ever left without its pack)
  for (const p of packs) {
    if (p.name === written) continue;
    await removeFile(ctx, `${packDir(ctx)}/${p.name}.idx`);
    state.packs.delete(p.name);
    await removeFile(ctx, `${packDir(ctx)}/${p.name}.pack`);
  }
  for (const l of loose) await removeFile(ctx, l.file);
  const objects = written === null ? 0 : (state.packs.get(written)?.count ?? 0);
  return { packsMerged: packs.length, looseMerged: loose.length, objects, packs: (await listPacks(ctx)).length };
}

/**
 * Incremental maintenance: packs the loose objects once {@link LOOSE_LIMIT} were written (or always when `full`),
 * and rolls small packs up geometrically once at least {@link MIN_ROLL} are to be merged, their objects searched for
 * deltas again as {@link joinPacks} does (`full`: every pack, at once, every object searched), so the repository
 * holds O(log n) packs and stays close to what `git gc` makes of it. Runs after the flushes and maintenance in flight.
 *
 * @param ctx - the repository
 * @param full - one pack of everything
 */
export async function maintain(ctx: GitContext, full: boolean): Promise<MaintenanceResult> {
  const state = stateOf(ctx);
  const run = state.chain.then(async () => {
    const loose = full || state.looseWritten >= LOOSE_LIMIT ? await listLoose(ctx) : [];
    state.looseWritten = 0;
    const packs = await listPacks(ctx);
    const roll = full ? packs : packsToRollUp(packs, loose.length);
    const nothing = loose.length === 0 && (roll.length === 0 || (full && roll.length === 1) || (!full && roll.length < MIN_ROLL));
    return nothing ? { packsMerged: 0, looseMerged: 0, objects: 0, packs: packs.length } : rollUp(ctx, roll, loose, full ? 'full' : 'incremental');
  });
  state.chain = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/**
 * Rolls every pack and every loose object up into one pack by copying the packs' entries (no delta search, not
 * even over the small packs, as maintenance does); a full repack, as {@link maintain} `full` does, only when two
 * packs share an object. Runs after the flushes and maintenance in flight.
 *
 * @param ctx - the repository
 */
export async function packAll(ctx: GitContext): Promise<MaintenanceResult> {
  const state = stateOf(ctx);
  const run = state.chain.then(async () => {
    const loose = await listLoose(ctx);
    state.looseWritten = 0;
    const packs = await listPacks(ctx);
    const nothing = loose.length === 0 && packs.length <= 1;
    return nothing ? { packsMerged: 0, looseMerged: 0, objects: 0, packs: packs.length } : rollUp(ctx, packs, loose, 'copy');
  });
  state.chain = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** Writes the objects pending in batches as one pack, after the flushes in flight; resolves once every object pending at the call is stored. */
export async function flushPending(ctx: GitContext): Promise<void> {
  const state = stateOf(ctx);
  if (state.pending.size === 0) return state.chain;
  const run = state.chain.then(async () => {
    const batch = [...state.pending].map(([oid, o]) => ({ oid, ...o }));
    if (batch.length === 0) return;
    await writePack(ctx, batch);
    for (const o of batch) {
      state.pending.delete(o.oid);
      state.pendingBytes -= o.content.length;
    }
  });
  state.chain = run.then(
    () => undefined,
    () => undefined,
  );
  await run;
}

/** Before a ref moves: the pending objects stored, unless a holding batch holds fewer than its bytes. */
export async function flushBeforeRefMove(ctx: GitContext): Promise<void> {
  const state = stateOf(ctx);
  if (state.holdBytes === 0 || state.pendingBytes >= state.holdBytes) await flushPending(ctx);
}

/**
 * Runs `fn` with the objects it stores kept in memory and written as one pack before the first ref it moves
 * (`compareAndSwapRef` flushes; with `holdBytes`, only once that many bytes are held) or when it ends, so a turn
 * writes a pack file instead of a file per object, and with the pack files its reads open kept open for its other
 * reads (closed when the last batch ends); then, with automatic maintenance on, starts a roll-up and resolves without
 * waiting for it (as `git maintenance` runs detached): a roll-up rewrites what is stored already, so the batch is
 * durable without it, and the caller's next step (the model call) overlaps it. The next flush and ref move wait for it
 * ({@link settled}). A failed maintenance run changes nothing that was written (it writes the new pack before removing
 * anything) and is tried again after the next batch. With `rollUp` false (a lone DAG write: the turn's commit comes
 * next, and would wait for a roll-up started now) the roll-up waits for a batch that ends a turn, or for the
 * {@link DEFER_LIMIT}th such batch in a row.
 */
export async function inBatch<T>(ctx: GitContext, fn: () => Promise<T>, holdBytes = 0, rollUp = true): Promise<T> {
  const state = stateOf(ctx);
  if (state.batchDepth === 0) state.holdBytes = holdBytes;
  state.batchDepth++;
  let result: T;
  try {
    result = await fn();
  } finally {
    state.batchDepth--;
    if (state.batchDepth === 0) {
      state.holdBytes = 0;
      await closePackFiles(ctx);
      await flushPending(ctx);
    }
  }
  if (state.batchDepth === 0 && state.maintenance) {
    if (rollUp || ++state.batchesDeferred >= DEFER_LIMIT) {
      state.batchesDeferred = 0;
      void maintain(ctx, false).catch(() => undefined);
    }
  }
  return result;
}

/** Resolves once the flushes and maintenance in flight are done. */
export async function settled(ctx: GitContext): Promise<void> {
  await stateOf(ctx).chain;
}
