import { deflateSync, inflateSync } from 'node:zlib';
import { rightSize } from './right-size.js';
import { CorruptObjectError, ObjectNotFoundError, ObjectTypeError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { hashObject, hashWrappedObject, objectHeader } from '../object-hash.js';
import { pathExists, readFileOrNull, writeFileAtomic } from './fs-ops.js';
import { inLoadedPacks, readFromPacks } from './pack-reader.js';
import { EMPTY_TREE } from './oid.js';
import type { RawObject } from './state.js';
import { cacheObject, cachedObject, rememberExisting, stateOf } from './state.js';

type ObjectType = RawObject['type'];
const TYPES: readonly string[] = ['blob', 'tree', 'commit', 'tag'];

function loosePath(ctx: GitContext, oid: string): { dir: string; file: string } {
  const dir = `${ctx.gitdir}/objects/${oid.slice(0, 2)}`;
  return { dir, file: `${dir}/${oid.slice(2)}` };
}

/** An object hashed in memory, not yet stored. */
export interface PreparedObject {
  readonly oid: string;
  readonly type: ObjectType;
  readonly wrapped: Buffer;
  readonly headerLength: number;
}

export function prepareObject(type: ObjectType, content: Uint8Array): PreparedObject {
  const header = objectHeader(type, content.length);
  const wrapped = Buffer.concat([header, content]);
  return { oid: hashWrappedObject(wrapped), type, wrapped, headerLength: header.length };
}

/**
 * Stores a prepared object as a zlib-compressed loose object: temp file, then rename onto its final name (an
 * existing copy is replaced by identical bytes, so no existence check is needed).
 */
export async function storeObject(ctx: GitContext, object: PreparedObject): Promise<string> {
  const state = stateOf(ctx);
  // a pack already holds it (the set of known oids is trimmed): not written again, so packs never share an object
  if (!state.known.has(object.oid) && (await inLoadedPacks(ctx, object.oid))) rememberExisting(state, object.oid);
  if (state.batchDepth > 0 && !state.known.has(object.oid)) {
    // in a batch: kept in memory, written with the batch's pack before any ref moves (see flushPending)
    if (!state.pending.has(object.oid)) state.pendingBytes += object.wrapped.length - object.headerLength;
    state.pending.set(object.oid, { type: object.type, content: object.wrapped.subarray(object.headerLength) });
    return object.oid;
  }
  if (!state.known.has(object.oid)) {
    const { dir, file } = loosePath(ctx, object.oid);
    await writeFileAtomic(ctx, dir, file, deflateSync(object.wrapped, { level: 1 }));
    rememberExisting(state, object.oid);
    state.looseWritten++;
  }
  cacheObject(state, object.oid, { type: object.type, content: object.wrapped.subarray(object.headerLength) });
  return object.oid;
}

/** Hashes and stores one object; returns its oid. */
export async function writeObject(ctx: GitContext, type: ObjectType, content: Uint8Array): Promise<string> {
  return storeObject(ctx, prepareObject(type, content));
}

/** True when the object is stored loose or in a pack, or pending in a batch. */
export async function hasObjectInternal(ctx: GitContext, oid: string): Promise<boolean> {
  const state = stateOf(ctx);
  if (oid === EMPTY_TREE || state.known.has(oid) || state.pending.has(oid) || (await inLoadedPacks(ctx, oid))) return true;
  if (await pathExists(ctx, loosePath(ctx, oid).file)) {
    rememberExisting(state, oid);
    return true;
  }
  const packed = await readPacked(ctx, oid);
  if (packed !== null) rememberExisting(state, oid);
  return packed !== null;
}

function decodeLoose(oid: string, deflated: Uint8Array): RawObject {
  let wrapped: Buffer;
  try {
    wrapped = inflateSync(deflated);
  } catch (err) {
    throw new CorruptObjectError(`object ${oid}`, `zlib: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (hashWrappedObject(wrapped) !== oid) throw new CorruptObjectError(`object ${oid}`, 'content does not hash to its id');
  const nul = wrapped.indexOf(0);
  const [type, size] = wrapped.subarray(0, nul < 0 ? 0 : nul).toString('latin1').split(' ');
  const content = rightSize(wrapped.subarray(nul + 1));
  if (nul < 0 || type === undefined || !TYPES.includes(type) || Number(size) !== content.length) {
    throw new CorruptObjectError(`object ${oid}`, 'bad object header');
  }
  return { type: type as ObjectType, content };
}

/** The object from the packs, or null; `relist` as {@link readFromPacks}. */
async function readPacked(ctx: GitContext, oid: string, relist = true): Promise<RawObject | null> {
  const object = await readFromPacks(ctx, oid, (base) => readObjectInternal(ctx, base), relist);
  if (object === null) return null;
  // a pack entry is checked like a loose object: its content must hash to its name
  if (hashObject(object.type, object.content) !== oid) throw new CorruptObjectError(`object ${oid}`, 'its pack entry does not hash to its id');
  return object;
}

/** Reads and verifies one object (cache, then the packs loaded so far, then loose, then the packs listed again). */
export async function readObjectInternal(ctx: GitContext, oid: string): Promise<RawObject> {
  if (oid === EMPTY_TREE) return { type: 'tree', content: new Uint8Array(0) };
  const state = stateOf(ctx);
  const hit = cachedObject(state, oid) ?? state.pending.get(oid);
  if (hit !== undefined) return hit;
  // the packs loaded so far first: most objects live in packs, and a miss there reads no listing, where trying the
  // loose file first costs a failed open (an error and its stack) per packed object
  let object = await readPacked(ctx, oid, false);
  if (object === null) {
    const deflated = await readFileOrNull(ctx, loosePath(ctx, oid).file);
    object = deflated !== null ? decodeLoose(oid, deflated) : await readPacked(ctx, oid);
  }
  if (object === null) throw new ObjectNotFoundError(oid);
  ctx.onObjectRead?.(oid);
  rememberExisting(state, oid);
  cacheObject(state, oid, object);
  return object;
}

export async function readTyped(ctx: GitContext, oid: string, type: ObjectType): Promise<Uint8Array> {
  const object = await readObjectInternal(ctx, oid);
  if (object.type !== type) throw new ObjectTypeError(oid, type, object.type);
  return object.content;
}
