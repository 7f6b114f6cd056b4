import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FsFileHandleLike } from '../fs-like.js';
import type { LockIdentity } from '../lock-identity.js';

/** A decoded git object. */
export interface RawObject {
  readonly type: 'blob' | 'tree' | 'commit' | 'tag';
  readonly content: Uint8Array;
}

/** A pack of the repository as loaded: its index (see `offsetIn`), and its bytes once an entry was read. */
export interface LoadedPack {
  readonly name: string;
  /** The index's header and fan-out table (its first 1,032 bytes), or the whole index. */
  readonly head: Buffer;
  /** The whole index, once this context read or wrote it; without it a lookup reads the names of one fan-out bucket. */
  idx: Buffer | undefined;
  /** Names of the fan-out buckets read so far, by first byte (while the whole index is not read). */
  buckets?: Map<number, Buffer> | undefined;
  readonly count: number;
  pack: Buffer | undefined;
  /** The read of the whole pack under way, when one is (a file system that cannot read at a position). */
  loading?: Promise<Buffer> | undefined;
  /** Delta bases decoded from this pack, by offset: the next read down the same chain starts from them. */
  bases?: Map<number, RawObject>;
  /** Bytes held in {@link bases}. */
  baseBytes?: number;
}

/** A pack file open for reading at a position. */
export type PackReadHandle = Pick<FsFileHandleLike, 'read' | 'close'>;

/** A pack file opened for reads at a position, shared by the reads of open batches. */
export interface OpenPackFile {
  readonly handle: Promise<PackReadHandle>;
  /** Reads using it now. */
  users: number;
}

/** Per-repository state of the git layer, held by the context's cache object. */
export interface GitState {
  fsync: boolean;
  /** A ref lock older than this (by its mtime, in ms) is taken for a dead writer's and removed. */
  staleLockMs: number;
  tempSuffix: () => string;
  /** Who this process is in the locks and temporary files it writes, and how to tell whether another is alive. */
  identity: LockIdentity;
  /** A fresh random nonce per lock (names the owner's lock and its temporary files). */
  nonce: () => string;
  /** Nonces of locks this context failed to remove: no call holds them, so this process may take them over. */
  readonly abandoned: Set<string>;
  /** Oids known to exist on storage (objects are immutable, so the set only grows until trimmed). */
  readonly known: Set<string>;
  /** LRU of decoded objects, bounded by `objectBytes`. */
  readonly objects: Map<string, RawObject>;
  objectBytes: number;
  /** Directories made or being made (the mkdir's promise). */
  readonly dirs: Map<string, Promise<void>>;
  /** Objects of open batches ({@link GitState.batchDepth} > 0), kept in memory until they are flushed as one pack. */
  readonly pending: Map<string, RawObject>;
  /** Bytes of the contents in {@link GitState.pending}. */
  pendingBytes: number;
  /** Open batches: while above 0, stored objects go to {@link GitState.pending}. */
  batchDepth: number;
  /** While above 0 (a holding batch is open), a ref move flushes {@link GitState.pending} only once it holds this many bytes. */
  holdBytes: number;
  /** The last flush or maintenance in flight: the next one starts after it, and a ref moves only after it. */
  chain: Promise<void>;
  /** Loose objects written since the last maintenance. */
  looseWritten: number;
  /** Roll packs up geometrically (and pack loose objects) after each flush. */
  maintenance: boolean;
  /** Batches ended without starting maintenance since it last started (see `inBatch`'s `rollUp`). */
  batchesDeferred: number;
  /** The packs listed so far, by name (`pack-<sha1>`), in listing order: index, and the pack's bytes once an entry was read. */
  readonly packs: Map<string, LoadedPack>;
  /** The pack the last lookup found its object in: lookups try it first (objects read together sit together). */
  lastFound: LoadedPack | undefined;
  /** Whole pack index reads under way, by pack name: concurrent reads share them. */
  readonly indexReads: Map<string, Promise<Uint8Array | null>>;
  /** Object reads from packs under way (a read resolves its delta chain through the same pack files). */
  packReads: number;
  /** Files of `objects/pack` (packs, indexes) opened by reads during open batches or reads, by file name: one handle per file, closed once no batch and no read is open. */
  readonly packFiles: Map<string, OpenPackFile>;
  /** Blocks of pack files read at a position, by `<pack>:<block>`, least recently used first (see `readPackRange`). */
  readonly packBlocks: Map<string, Buffer>;
}

/** Default of {@link GitState.staleLockMs}: a live writer holds a ref lock for milliseconds. */
export const DEFAULT_STALE_LOCK_MS = 30_000;
const MAX_KNOWN = 200_000;
const MAX_CACHE_BYTES = 32 * 1024 * 1024;
const EVICT_TO_BYTES = (MAX_CACHE_BYTES * 3) / 4;
const MAX_CACHED_OBJECT = 1024 * 1024;
/** The property of a context's cache object that holds its state. */
const STATE = Symbol('ctxgit git state');

/** The git layer's state of the repository `ctx` opens, held by its cache object (made on first use). */
export function stateOf(ctx: { readonly cache: object }): GitState {
  const holder = ctx.cache as { [STATE]?: GitState };
  return (holder[STATE] ??= newGitState());
}

function newGitState(): GitState {
  const prefix = randomBytes(6).toString('hex');
  let counter = 0;
  return {
    fsync: true,
    staleLockMs: DEFAULT_STALE_LOCK_MS,
    tempSuffix: () => `${prefix}${(counter++).toString(36)}`,
    identity: processIdentity(),
    nonce: () => randomBytes(8).toString('hex'),
    abandoned: new Set(),
    known: new Set(), objects: new Map(), objectBytes: 0, dirs: new Map(),
    pending: new Map(), pendingBytes: 0, batchDepth: 0, holdBytes: 0, chain: Promise.resolve(), looseWritten: 0, maintenance: true, batchesDeferred: 0, packs: new Map(), lastFound: undefined, indexReads: new Map(), packReads: 0, packFiles: new Map(), packBlocks: new Map() };
}

/** This process: the host name, its pid, and `process.kill(pid, 0)` to tell whether a pid of this host runs. */
export function processIdentity(): LockIdentity {
  return {
    host: hostname(),
    pid: process.pid,
    isAlive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        // EPERM: the process exists but belongs to another user
        return typeof err === 'object' && err !== null && 'code' in err && (err as { code: unknown }).code === 'EPERM';
      }
    },
  };
}

export function rememberExisting(state: GitState, oid: string): void {
  if (state.known.size >= MAX_KNOWN) state.known.clear();
  state.known.add(oid);
}

export function cacheObject(state: GitState, oid: string, object: RawObject): void {
  if (object.content.length > MAX_CACHED_OBJECT || state.objects.has(oid)) return;
  // a small object inflated by zlib is a view of a 16 KiB chunk: cached as it is, the cache would hold the chunk
  const { content } = object;
  const own = content.buffer.byteLength <= 2 * content.byteLength ? object : { type: object.type, content: Buffer.from(new Uint8Array(content).buffer) };
  state.objects.set(oid, own);
  state.objectBytes += object.content.length + 64;
  if (state.objectBytes <= MAX_CACHE_BYTES) return;
  // Evict the least recent quarter at once: a walk from the front of a Map also steps over the holes of earlier
  // deletions, so evicting one entry per insert would cost the cache's size each time.
  for (const [key, value] of state.objects) {
    if (state.objectBytes <= EVICT_TO_BYTES) break;
    state.objects.delete(key);
    state.objectBytes -= value.content.length + 64;
  }
}

export function cachedObject(state: GitState, oid: string): RawObject | undefined {
  const hit = state.objects.get(oid);
  if (hit !== undefined) {
    state.objects.delete(oid);
    state.objects.set(oid, hit);
  }
  return hit;
}
