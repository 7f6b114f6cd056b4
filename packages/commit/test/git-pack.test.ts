import fc from 'fast-check';
import { createFsFromVolume, Volume } from 'memfs';
import { describe, expect, test } from 'vitest';
import { compareAndSwapRef } from '../src/git/compare-and-swap-ref.js';
import * as nodeFs from 'node:fs';
import type { FsFileHandleLike, FsLike } from '../src/git/fs-like.js';
import type { GitContext } from '../src/git/git-context.js';
import { listPacks, maintain, inBatch, packAll, packsToRedelta, packsToRollUp, settled } from '../src/git/internal/pack-store.js';
import { stateOf } from '../src/git/internal/state.js';
import type { PackInfo } from '../src/git/internal/pack-store.js';
import { openGit } from '../src/git/open-git.js';
import { readBlob } from '../src/git/read-blob.js';
import { readCommitObject } from '../src/git/read-commit-object.js';
import { readRef } from '../src/git/read-ref.js';
import { readTree } from '../src/git/read-tree.js';
import { updateTree } from '../src/git/update-tree.js';
import { writeBlob } from '../src/git/write-blob.js';
import { writeCommit } from '../src/git/write-commit.js';
import { AUTHOR, FS_KINDS, fsckStrict, git, tempRepoDir } from './git-fixtures.js';
import { decodePack } from '../src/git/internal/pack-decode.js';
import { encodePack } from '../src/git/internal/pack-codec.js';
import type { PackObject } from '../src/git/internal/pack-codec.js';
import { hashObject } from '../src/git/object-hash.js';
import { readObjectInternal } from '../src/git/internal/object-io.js';
import { isZlibStored, storedData, zlibStored } from '../src/git/internal/zlib-stored.js';
import { deflateSync, inflateSync } from 'node:zlib';
import { inBatch as publicInBatch, GitArgumentError, ObjectNotFoundError } from '../src/git/index.js';

/** `turns` commits on `refs/heads/main`, each adding a blob to a sharded tree and rewriting an earlier one; returns the blobs by path. */
async function history(ctx: GitContext, turns: number, batched: boolean, around?: { before: () => void; after: () => Promise<void> }): Promise<Map<string, string>> {
  const blobs = new Map<string, string>();
  let tree: string | null = null;
  let head: string | null = null;
  for (let t = 0; t < turns; t++) {
    const turn = async (): Promise<void> => {
      const path = ['items', String(Math.floor(t / 10)), `${t}.json`];
      const text = `{"turn":${t},"text":"${'lorem ipsum '.repeat(t % 7)}"}\n`;
      const edits = [{ path, oid: await writeBlob(ctx, text), type: 'blob' as const }];
      blobs.set(path.join('/'), text);
      if (t > 3) {
        const old = ['items', String(Math.floor((t - 3) / 10)), `${t - 3}.json`];
        const aged = `{"turn":${t - 3},"state":"aged"}\n`;
        edits.push({ path: old, oid: await writeBlob(ctx, aged), type: 'blob' });
        blobs.set(old.join('/'), aged);
      }
      tree = await updateTree(ctx, tree, edits);
      const c = await writeCommit(ctx, { tree, parents: head === null ? [] : [head], message: `turn ${t}\n`, author: AUTHOR });
      around?.before();
      await compareAndSwapRef(ctx, 'refs/heads/main', head, c);
      head = c;
      await around?.after();
    };
    if (batched) await inBatch(ctx, turn);
    else await turn();
  }
  return blobs;
}

async function readAll(ctx: GitContext, tree: string, prefix: string[] = []): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readTree(ctx, tree)) {
    const path = [...prefix, e.path];
    if (e.type === 'tree') for (const [k, v] of await readAll(ctx, e.oid, path)) out.set(k, v);
    else out.set(path.join('/'), new TextDecoder().decode(await readBlob(ctx, e.oid)));
  }
  return out;
}

async function looseCount(ctx: GitContext): Promise<number> {
  let n = 0;
  for (const d of (await ctx.fs.promises.readdir(`${ctx.gitdir}/objects`)).map(String)) {
    if (/^[0-9a-f]{2}$/u.test(d)) n += (await ctx.fs.promises.readdir(`${ctx.gitdir}/objects/${d}`)).length;
  }
  return n;
}

describe.each(FS_KINDS)('packed storage on $name', (kind) => {
  test('the public inBatch writes what its writes store as one pack, reads see them inside, its result comes back', async () => {
    const ctx = await kind.open();
    const packsBefore = (await listPacks(ctx)).length;
    const { commit, blob } = await publicInBatch(ctx, async () => {
      const oid = await writeBlob(ctx, 'in a batch\n');
      expect(new TextDecoder().decode(await readBlob(ctx, oid))).toBe('in a batch\n');
      const tree = await updateTree(ctx, null, [{ path: ['a.txt'], oid, type: 'blob' }]);
      const c = await writeCommit(ctx, { tree, parents: [], message: 'one pack\n', author: AUTHOR });
      await compareAndSwapRef(ctx, 'refs/heads/main', null, c);
      return { commit: c, blob: oid };
    });
    expect(await looseCount(ctx)).toBe(0);
    expect((await listPacks(ctx)).length).toBe(packsBefore + 1);
    expect(await readRef(ctx, 'refs/heads/main')).toBe(commit);
    expect(new TextDecoder().decode(await readBlob(ctx, blob))).toBe('in a batch\n');
    if (kind.name === 'disk') {
      expect(git(ctx, ['cat-file', '-p', `${commit}:a.txt`])).toBe('in a batch\n');
      expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
    }
    await expect(publicInBatch(ctx, 'not a function' as unknown as () => Promise<void>)).rejects.toBeInstanceOf(GitArgumentError);
  });

  test('a holding batch moves refs without storing its objects until it holds holdBytes; then a pack at a ref move, and the rest when it ends', async () => {
    const ctx = await kind.open({ maintenance: false });
    const holdBytes = 4000;
    const moves: { packs: number; held: number }[] = [];
    let heldBefore = 0;
    const blobs = await publicInBatch(
      ctx,
      () =>
        history(ctx, 40, true, {
          before: () => (heldBefore = stateOf(ctx).pendingBytes),
          after: async () => {
            moves.push({ packs: (await listPacks(ctx)).length, held: heldBefore });
            if (moves.length === 1) {
              // the hazard holding takes on: another reader sees the ref before its objects are stored
              const other = await openGit(kind.name === 'disk' ? { dir: ctx.gitdir } : { memory: true, fs: ctx.fs });
              await expect(readCommitObject(other, (await readRef(other, 'refs/heads/main')) as string)).rejects.toBeInstanceOf(ObjectNotFoundError);
            }
          },
        }),
      { holdBytes },
    );
    // a pack is written at a move only once the bytes held before it reached holdBytes; several turns share each pack
    const packsBefore = (i: number): number => (i === 0 ? 0 : (moves[i - 1] as { packs: number }).packs);
    for (const [i, m] of moves.entries()) expect(m.packs > packsBefore(i), `move ${i}`).toBe(m.held >= holdBytes);
    const flushes = moves.filter((m, i) => m.packs > packsBefore(i));
    expect(flushes.length).toBeGreaterThan(1);
    expect(flushes.length).toBeLessThan(moves.length / 3);
    expect(stateOf(ctx).pendingBytes).toBe(0);
    expect(await looseCount(ctx)).toBe(0);
    expect((await listPacks(ctx)).length).toBe(flushes.length + 1);
    const fresh = await openGit(kind.name === 'disk' ? { dir: ctx.gitdir } : { memory: true, fs: ctx.fs });
    expect(await readAll(fresh, (await readCommitObject(fresh, (await readRef(fresh, 'refs/heads/main')) as string)).tree)).toEqual(blobs);
    if (kind.name === 'disk') {
      expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
      expect(git(ctx, ['rev-list', '--count', 'refs/heads/main']).trim()).toBe('40');
    }
    for (const bad of [{ holdBytes: -1 }, { holdBytes: 1.5 }, { holdBytes: Number.NaN }, { holdBytes: '1' }, null]) {
      await expect(publicInBatch(ctx, async () => writeBlob(ctx, 'never'), bad as unknown as { holdBytes: number })).rejects.toBeInstanceOf(GitArgumentError);
    }
  });

  test('a batch writes one pack before its ref moves, not a file per object; packs roll up geometrically; every object reads back', async () => {
    const ctx = await kind.open();
    const blobs = await history(ctx, 60, true);
    await settled(ctx); // the last batch's roll-up runs in the background
    expect(await looseCount(ctx)).toBe(0);
    const packs = await listPacks(ctx);
    // geometric: each pack at least twice the next smaller one, but for fewer than 8 small ones waiting to be rolled up
    // together, so O(log n) + 8 packs
    const waiting = packsToRollUp(packs, 0);
    expect(waiting.length).toBeLessThan(8);
    const counts = packs.filter((p) => !waiting.includes(p)).map((p) => p.count).sort((a, b) => a - b);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(2 * (counts[i - 1] as number));
    expect(packs.length).toBeLessThanOrEqual(15);
    const fresh = await openGit(kind.name === 'disk' ? { dir: ctx.gitdir } : { memory: true, fs: ctx.fs });
    const head = (await readRef(fresh, 'refs/heads/main')) as string;
    expect(await readAll(fresh, (await readCommitObject(fresh, head)).tree)).toEqual(blobs);
    if (kind.name === 'disk') {
      expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
      expect(git(ctx, ['rev-list', '--count', 'refs/heads/main']).trim()).toBe('60');
    }
  });

  test("a turn's pack stores its entries uncompressed; a roll-up deflates them (but payloads under 128 bytes); git reads both", async () => {
    const ctx = await kind.open();
    const blobs = await history(ctx, 6, true);
    const large = `${'a large tool result '.repeat(200)}\n`;
    await inBatch(ctx, () => writeBlob(ctx, large)); // one more turn's pack, its entry far over a few hundred bytes
    await settled(ctx);
    const entries = async (): Promise<{ size: number; payload: number; stored: boolean; zlibStores: boolean }[]> => {
      const out: { size: number; payload: number; stored: boolean; zlibStores: boolean }[] = [];
      for (const p of await listPacks(ctx)) {
        const read = async (ext: string): Promise<Buffer> => Buffer.from(await ctx.fs.promises.readFile(`${ctx.gitdir}/objects/pack/${p.name}.${ext}`));
        for (const o of await decodePack(await read('pack'), await read('idx'), p.name, (oid) => readObjectInternal(ctx, oid), true)) {
          // the entry's payload (the object, or its delta), which zlib itself stores when deflate would make it larger
          const data = o.stored?.data ?? Buffer.alloc(0);
          const payload = inflateSync(data);
          out.push({ size: o.content.length, payload: payload.length, stored: isZlibStored(data), zlibStores: isZlibStored(deflateSync(payload, { level: 1 })) });
        }
      }
      return out;
    };
    const turns = await entries();
    expect(turns.some((e) => e.size >= 512)).toBe(true);
    expect(turns.filter((e) => !e.stored)).toEqual([]);
    if (kind.name === 'disk') expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
    await maintain(ctx, true);
    const rolled = await entries();
    expect(rolled.filter((e) => e.stored && !e.zlibStores && e.payload >= 128)).toEqual([]);
    expect(rolled.filter((e) => !e.stored && e.payload < 128)).toEqual([]);
    const fresh = await openGit(kind.name === 'disk' ? { dir: ctx.gitdir } : { memory: true, fs: ctx.fs });
    expect(await readAll(fresh, (await readCommitObject(fresh, (await readRef(fresh, 'refs/heads/main')) as string)).tree)).toEqual(blobs);
    if (kind.name === 'disk') expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
  });

  test('gc: loose objects and every pack become one pack, deltas included, and git reads it', async () => {
    const ctx = await kind.open();
    const blobs = await history(ctx, 40, false);
    expect(await looseCount(ctx)).toBeGreaterThan(100);
    const r = await maintain(ctx, true);
    expect(r.looseMerged).toBeGreaterThan(100);
    expect(await looseCount(ctx)).toBe(0);
    expect((await listPacks(ctx)).length).toBe(1);
    expect((await maintain(ctx, true)).objects).toBe(0);
    const fresh = await openGit(kind.name === 'disk' ? { dir: ctx.gitdir } : { memory: true, fs: ctx.fs });
    const head = (await readRef(fresh, 'refs/heads/main')) as string;
    expect(await readAll(fresh, (await readCommitObject(fresh, head)).tree)).toEqual(blobs);
    if (kind.name === 'disk') {
      expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
      const verify = git(ctx, ['verify-pack', '-v', `${ctx.gitdir}/objects/pack/${(await listPacks(ctx))[0]?.name ?? ''}.idx`]);
      expect(verify).toMatch(/chain length = [1-9]/u);
    }
  });
  test('a roll-up streams packs larger than its read chunk into the new pack: entries copied, bytes not held, git verifies it', async () => {
    // no automatic maintenance: the roll-up under test is packAll's, not one that ran in the background meanwhile
    const ctx = await kind.open({ maintenance: false });
    let seed = 7;
    const noise = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 24));
    const big: [string, Uint8Array][] = [];
    await inBatch(ctx, async () => {
      for (let i = 0; i < 6; i++) {
        const bytes = noise(1_000_000 + i); // incompressible: the pack is over 6 MB, more than one 4 MiB read
        big.push([await writeBlob(ctx, bytes), bytes]);
      }
    });
    const blobs = await history(ctx, 30, true);
    expect((await listPacks(ctx)).length).toBeGreaterThan(1);
    await packAll(ctx);
    const [only, ...rest] = await listPacks(ctx);
    expect(rest).toEqual([]);
    expect(stateOf(ctx).packs.get(only?.name ?? '')?.pack).toBeUndefined(); // read entry by entry, as a pack another process wrote
    const fresh = await openGit(kind.name === 'disk' ? { dir: ctx.gitdir } : { memory: true, fs: ctx.fs });
    for (const [oid, bytes] of big) expect(Buffer.compare(Buffer.from(await readBlob(fresh, oid)), Buffer.from(bytes))).toBe(0);
    const head = (await readRef(fresh, 'refs/heads/main')) as string;
    expect(await readAll(fresh, (await readCommitObject(fresh, head)).tree)).toEqual(blobs);
    if (kind.name === 'disk') {
      expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
      git(ctx, ['verify-pack', `${ctx.gitdir}/objects/pack/${only?.name ?? ''}.idx`]);
    }
  });
});

describe('pack reads at a position', () => {
  test('go through openSync / readSync where the fs has them and through a handle otherwise, the same objects', async () => {
    const dir = await tempRepoDir();
    const writer = await openGit({ dir, fsync: false });
    const blobs = await history(writer, 12, true);
    const calls: string[] = [];
    const promises = new Proxy(nodeFs.promises, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'open' && args[1] === 'r') calls.push('open');
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as unknown as FsLike['promises'];
    const withSync: FsLike = {
      promises,
      openSync: (path, flags) => (flags === 'r' && calls.push('openSync'), nodeFs.openSync(path, flags)),
      readSync: (fd, buffer, offset, length, position) => (calls.push('readSync'), nodeFs.readSync(fd, buffer, offset, length, position)),
      closeSync: (fd) => nodeFs.closeSync(fd),
    };
    for (const [fs, expected] of [[withSync, ['openSync', 'readSync']], [{ promises }, ['open']]] as const) {
      calls.length = 0;
      // a new context: the packs were written by another, so they are read entry by entry
      const reader = await openGit({ dir, fsync: false, fs });
      const head = (await readRef(reader, 'refs/heads/main')) as string;
      expect(await readAll(reader, (await readCommitObject(reader, head)).tree)).toEqual(blobs);
      expect(new Set(calls)).toEqual(new Set(expected));
    }
  });
});

describe('pack join over a file system that reads in short pieces', () => {
  test('every read shorter or longer than the trailer: the joined pack holds every entry once, and reads back', async () => {
    const ctx = await openGit({ memory: true });
    const blobs = await history(ctx, 40, true);
    expect((await listPacks(ctx)).length).toBeGreaterThan(1);
    const sizes = [7, 33, 19, 20, 1000, 1, 21];
    let k = 0;
    const promises = new Proxy(ctx.fs.promises, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (key !== 'open') return typeof value === 'function' ? value.bind(target) : value;
        return async (path: string, flags: string): Promise<FsFileHandleLike> => {
          const handle = await target.open(path, flags);
          const read = handle.read?.bind(handle);
          if (read === undefined) throw new Error('memfs handles read');
          return {
            writeFile: (data) => handle.writeFile(data),
            datasync: () => handle.datasync(),
            close: () => handle.close(),
            read: (buffer, offset, length, position) => read(buffer, offset, Math.min(length, sizes[k++ % sizes.length] as number), position),
          };
        };
      },
    });
    const choppy = await openGit({ memory: true, fs: { promises } });
    await packAll(choppy);
    expect(k).toBeGreaterThan(100);
    const [only, ...rest] = await listPacks(choppy);
    expect(rest).toEqual([]);
    const fresh = await openGit({ memory: true, fs: ctx.fs });
    expect((await listPacks(fresh)).map((p) => p.name)).toEqual([only?.name]);
    const head = (await readRef(fresh, 'refs/heads/main')) as string;
    expect(await readAll(fresh, (await readCommitObject(fresh, head)).tree)).toEqual(blobs);
  });
});

describe('zlibStored', () => {
  test('property: inflate reads back any bytes, across the 65,535-byte blocks; the stream says it is stored', () => {
    const sizes = fc.oneof(fc.integer({ min: 0, max: 600 }), fc.constantFrom(65_534, 65_535, 65_536, 131_070, 131_071, 200_000));
    fc.assert(
      fc.property(sizes, fc.integer(), (size, seed) => {
        const data = Buffer.alloc(size, seed & 0xff);
        for (let i = 0; i < size; i += 97) data[i] = (seed >>> (i % 24)) & 0xff;
        const stream = zlibStored(data);
        expect(inflateSync(stream).equals(data)).toBe(true);
        expect(isZlibStored(stream)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test('property: storedData reads what zlib reads from a stored stream, and nothing from any other', () => {
    const sizes = fc.oneof(fc.integer({ min: 0, max: 600 }), fc.constantFrom(65_535, 65_536, 131_071));
    // a stream inside other bytes (a pack), possibly damaged at one byte
    fc.assert(
      fc.property(sizes, fc.integer(), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean(), (size, seed, at, byte, damaged) => {
        const data = Buffer.alloc(size, seed & 0xff);
        for (let i = 0; i < size; i += 89) data[i] = (seed >>> (i % 24)) & 0xff;
        const stream = zlibStored(data);
        if (damaged) stream[at % stream.length] = byte;
        const pack = Buffer.concat([Buffer.from('PACK'), stream, Buffer.from('trailer')]);
        const got = storedData(pack, 4, pack.length, size);
        let zlib: Buffer | undefined;
        try {
          zlib = inflateSync(stream);
        } catch {
          zlib = undefined;
        }
        // whatever storedData reads, zlib reads the same; undamaged, it reads the data
        if (got !== undefined) expect(zlib !== undefined && got.equals(zlib)).toBe(true);
        if (!damaged) expect(got?.equals(data)).toBe(true);
        // another size, a compressed stream, a stream cut short: not read (zlib is asked, as before)
        expect(storedData(pack, 4, pack.length, size + 1)).toBeUndefined();
        // a damaged entry header's size: nothing allocated for it, nothing read
        expect(storedData(pack, 4, pack.length, 2 ** 40)).toBeUndefined();
        expect(storedData(pack, 4, 4 + stream.length - 1, size)).toBeUndefined();
        const deflated = deflateSync(data, { level: 1 });
        if (size > 0) expect(storedData(deflated, 0, deflated.length, size)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});

describe('encodePack', () => {
  test('a searched pack deflates data of 128 bytes or more and stores what is shorter; both read back', async () => {
    const blob = (text: string): PackObject => {
      const content = Buffer.from(text);
      return { oid: hashObject('blob', content), type: 'blob', content };
    };
    const objects = [blob('short note\n'), blob(`${'a long and repetitive line of text, '.repeat(20)}\n`)];
    const { pack, idx } = encodePack(objects, true);
    const read = await decodePack(pack, idx, 'test', () => Promise.reject(new Error('no base outside the pack')), true);
    const byOid = new Map(read.map((o) => [o.oid, o]));
    for (const o of objects) expect(Buffer.from(byOid.get(o.oid)?.content ?? []).equals(o.content)).toBe(true);
    expect(isZlibStored(byOid.get(objects[0]?.oid as string)?.stored?.data as Uint8Array)).toBe(true);
    expect(isZlibStored(byOid.get(objects[1]?.oid as string)?.stored?.data as Uint8Array)).toBe(false);
  });
});

describe('packsToRedelta', () => {
  const packs = (counts: readonly number[]): PackInfo[] => counts.map((count, i) => ({ name: `pack-${String(i).padStart(40, '0')}`, count }));
  test('property: the smallest packs, two or more: every pack written without a search (under 256 objects), then more while they hold at most 512 objects together; none rather than one', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 12 }), (counts) => {
        const all = packs(counts);
        const picked = packsToRedelta(all);
        expect(picked.length).not.toBe(1);
        const unsearched = all.filter((p) => p.count < 256);
        if (unsearched.length >= 2) for (const p of unsearched) expect(picked).toContain(p);
        const sum = (ps: readonly PackInfo[]): number => ps.reduce((n, p) => n + p.count, 0);
        expect(sum(picked)).toBeLessThanOrEqual(Math.max(512, sum(unsearched)));
        const largest = Math.max(0, ...picked.map((p) => p.count));
        for (const p of all) if (!picked.includes(p) && picked.length > 0) expect(p.count).toBeGreaterThanOrEqual(largest);
      }),
    );
    expect(packsToRedelta(packs([30, 35, 40, 2000, 400])).map((p) => p.count)).toEqual([30, 35, 40, 400]);
    expect(packsToRedelta(packs([30, 35, 40, 2000, 500])).map((p) => p.count)).toEqual([30, 35, 40]);
    expect(packsToRedelta(packs([200, 210, 220, 2000, 300])).map((p) => p.count)).toEqual([200, 210, 220]);
    expect(packsToRedelta(packs([100, 2000]))).toEqual([]);
  });
});

describe('packsToRollUp', () => {
  const packs = (counts: readonly number[]): PackInfo[] => counts.map((count, i) => ({ name: `pack-${String(i).padStart(40, '0')}`, count }));
  test('keeps a geometric progression, rolls up what breaks it', () => {
    expect(packsToRollUp(packs([1000, 400, 100]), 0)).toEqual([]);
    expect(packsToRollUp(packs([1000, 400, 100, 60]), 0).map((p) => p.count)).toEqual([60, 100]);
    expect(packsToRollUp(packs([1000, 10]), 20).map((p) => p.count)).toEqual([10]);
  });
  test('property: after a roll-up the packs left, plus the new one, form a factor-2 progression', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 10_000 }), { maxLength: 12 }), fc.integer({ min: 0, max: 500 }), (counts, loose) => {
        const all = packs(counts);
        const roll = packsToRollUp(all, loose);
        const left = all.filter((p) => !roll.includes(p)).map((p) => p.count);
        const merged = loose + roll.reduce((n, p) => n + p.count, 0);
        const sizes = [...left, ...(merged > 0 ? [merged] : [])].sort((a, b) => a - b);
        for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeGreaterThanOrEqual(2 * (sizes[i - 1] as number) || 0);
      }),
    );
  });
});

test('a pack on disk reads with git and with a fresh context after the process that wrote it is gone', async () => {
  const ctx = await openGit({ dir: await tempRepoDir(), fsync: true });
  await history(ctx, 5, true);
  expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
  expect(git(ctx, ['count-objects', '-v'])).toMatch(/^count: 0$/mu);
});

test('a batch resolves before the roll-up it starts (a batch that waited for it would never resolve here); reads go on meanwhile; settled waits for it', async () => {
  // removing a pack (a roll-up's last step: the packs it merged go) waits for the gate
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reached!: () => void;
  const unlinkReached = new Promise<void>((resolve) => (reached = resolve));
  const raw = createFsFromVolume(new Volume());
  const promises = raw.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const fs = {
    promises: new Proxy(promises, {
      get: (target, key) =>
        key === 'unlink'
          ? async (...args: unknown[]) => {
              if (/\/objects\/pack\/pack-[0-9a-f]{40}\.(idx|pack)$/u.test(String(args[0]))) {
                reached();
                await gate;
              }
              return target['unlink']?.(...args);
            }
          : target[key as string]?.bind(target),
    }),
  };
  const ctx = await openGit({ memory: true, fs: fs as never });
  // one-blob commits: equal packs of 3 objects, the eighth batch starts a roll-up of all eight
  const blobs: string[] = [];
  let head: string | null = null;
  for (let t = 0; (packsToRollUp(await listPacks(ctx), 0)).length < 8; t++) {
    await inBatch(ctx, async () => {
      const blob = await writeBlob(ctx, `turn ${t}\n`);
      blobs.push(blob);
      const tree = await updateTree(ctx, null, [{ path: ['t.txt'], oid: blob, type: 'blob' }]);
      const c = await writeCommit(ctx, { tree, parents: head === null ? [] : [head], message: `turn ${t}\n`, author: AUTHOR });
      await compareAndSwapRef(ctx, 'refs/heads/main', head, c);
      head = c;
    });
  }
  // the batch that started the roll-up resolved; the roll-up waits at the gate, its new pack written
  await unlinkReached;
  let done = false;
  const waited = settled(ctx).then(() => (done = true));
  for (const b of blobs) expect(await readBlob(ctx, b)).toBeInstanceOf(Uint8Array);
  expect(done).toBe(false);
  open();
  await waited;
  expect((await listPacks(ctx)).length).toBe(1);
  for (const [t, b] of blobs.entries()) expect(new TextDecoder().decode(await readBlob(ctx, b))).toBe(`turn ${t}\n`);
  expect(await readRef(ctx, 'refs/heads/main')).toBe(head);
});
