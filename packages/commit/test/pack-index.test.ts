// A pack's index is read as lookups need it: the fan-out table when the pack is listed, then the names of one fan-out
// bucket at a time (as git's map of an index is touched), so that a cold start does not read every index whole.
import * as nodeFs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { GitContext } from '../src/git/git-context.js';
import { CorruptObjectError } from '../src/git/errors.js';
import { encodeIndex } from '../src/git/internal/pack-codec.js';
import { offsetIn, openIndex, wholePack } from '../src/git/internal/pack-index.js';
import { inBatch, listPacks, packAll } from '../src/git/internal/pack-store.js';
import { stateOf } from '../src/git/internal/state.js';
import { openGit } from '../src/git/open-git.js';
import { readBlob } from '../src/git/read-blob.js';
import { writeBlob } from '../src/git/write-blob.js';
import { FS_KINDS, fsckStrict } from './git-fixtures.js';
import type { FsKind } from './git-fixtures.js';

/** A second context on the repository of `ctx` (another process, as far as the git layer knows). */
async function reopen(kind: FsKind, ctx: GitContext, fs?: unknown): Promise<GitContext> {
  return kind.name === 'memfs'
    ? openGit({ memory: true, fs: (fs ?? ctx.fs) as GitContext['fs'], fsync: false })
    : openGit({ dir: ctx.gitdir, fsync: false, ...(fs === undefined ? {} : { fs: fs as GitContext['fs'] }) });
}

/** `fs` with the bytes read from `*.idx` files counted (positioned reads and whole reads). */
function countingIdx(fs: GitContext['fs']): { fs: GitContext['fs']; bytes: () => number } {
  let bytes = 0;
  const idxFds = new Set<number>();
  const f = fs as unknown as typeof nodeFs;
  const counted = {
    ...f,
    openSync: (path: string, flags: string) => {
      const fd = f.openSync(path, flags);
      if (path.endsWith('.idx')) idxFds.add(fd);
      else idxFds.delete(fd);
      return fd;
    },
    readSync: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => {
      const n = f.readSync(fd, buffer, offset, length, position);
      if (idxFds.has(fd)) bytes += n;
      return n;
    },
    promises: {
      ...f.promises,
      readFile: async (path: string) => {
        const data = await f.promises.readFile(path);
        if (path.endsWith('.idx')) bytes += data.length;
        return data;
      },
    },
  };
  return { fs: counted as unknown as GitContext['fs'], bytes: () => bytes };
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const oidArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map(hex);
// offsets past 2 GiB go to the index's 64-bit table
const offsetArb = fc.oneof(fc.integer({ min: 12, max: 0x7fffffff }), fc.integer({ min: 0x80000000, max: 2 ** 40 }));

describe.each(FS_KINDS)('pack index lookups ($name)', (kind) => {
  test('a lookup through the fan-out table and one bucket finds what the whole index finds', async () => {
    const ctx = await kind.open({ maintenance: false });
    await ctx.fs.promises.mkdir(`${ctx.gitdir}/objects/pack`, { recursive: true });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.record({ oid: oidArb, offset: offsetArb }), { minLength: 1, maxLength: 300, selector: (e) => e.oid }), fc.array(oidArb, { maxLength: 20 }), async (entries, others) => {
        const name = `pack-${(n++).toString(16).padStart(40, '0')}`;
        const idx = encodeIndex(entries.map((e) => ({ ...e, crc: 0 })), Buffer.alloc(20));
        await ctx.fs.promises.writeFile(`${ctx.gitdir}/objects/pack/${name}.idx`, idx);
        const lazy = await openIndex(ctx, name);
        expect(lazy?.idx).toBeUndefined();
        expect(lazy?.count).toBe(entries.length);
        const whole = wholePack(name, idx);
        // present names, absent ones, and absent ones that share a present name's fan-out bucket
        const near = entries.map((e) => `${e.oid.slice(0, 38)}${((parseInt(e.oid.slice(38), 16) + 1) % 256).toString(16).padStart(2, '0')}`);
        for (const oid of [...entries.map((e) => e.oid), ...others, ...near]) {
          const want = Buffer.from(oid, 'hex');
          const expected = entries.find((e) => e.oid === oid)?.offset;
          expect(await offsetIn(ctx, lazy as NonNullable<typeof lazy>, want)).toBe(expected);
          expect(await offsetIn(ctx, whole, want)).toBe(expected);
        }
      }),
      { numRuns: 40 },
    );
  });

  test('a truncated index is a typed error when a lookup reaches past its end, or when the listing reads its header', async () => {
    const ctx = await kind.open({ maintenance: false });
    await ctx.fs.promises.mkdir(`${ctx.gitdir}/objects/pack`, { recursive: true });
    const entries = Array.from({ length: 200 }, (_, i) => ({ oid: Buffer.alloc(20, i).toString('hex'), offset: 12 + i, crc: 0 }));
    const idx = encodeIndex(entries, Buffer.alloc(20));
    const name = `pack-${'1'.repeat(40)}`;
    // the header and fan-out table, and the names of the first buckets only
    await ctx.fs.promises.writeFile(`${ctx.gitdir}/objects/pack/${name}.idx`, idx.subarray(0, 1032 + 20 * 20));
    const p = await openIndex(ctx, name);
    expect(p?.count).toBe(200);
    const lazy = p as NonNullable<typeof p>;
    // a name in the part that is there, whose offset is past the end; a name whose bucket is past the end
    await expect(offsetIn(ctx, lazy, Buffer.alloc(20, 5))).rejects.toThrow(CorruptObjectError);
    await expect(offsetIn(ctx, lazy, Buffer.alloc(20, 150))).rejects.toThrow(/ends before byte 4052, which its fan-out table implies/u);
    // shorter than its header and fan-out table: the listing fails typed
    const short = `pack-${'2'.repeat(40)}`;
    await ctx.fs.promises.writeFile(`${ctx.gitdir}/objects/pack/${short}.idx`, idx.subarray(0, 500));
    await expect(openIndex(ctx, short)).rejects.toThrow(CorruptObjectError);
  });

  test('a fresh context reads the fan-out tables and the buckets its objects are in, not the indexes whole', async () => {
    const writer = await kind.open({ maintenance: false });
    const blobs = Array.from({ length: 6000 }, (_, i) => `blob ${i}\n`);
    const oids = await inBatch(writer, async () => Promise.all(blobs.map(async (b) => writeBlob(writer, b))));
    for (let k = 0; k < 3; k++) await inBatch(writer, async () => writeBlob(writer, `small pack ${k}\n`));
    expect((await listPacks(writer)).length).toBe(4);
    const idxBytes = (await indexSizes(writer)).reduce((a, b) => a + b, 0);
    const counted = countingIdx(writer.fs);
    const reader = await reopen(kind, writer, counted.fs);
    const sample = [0, 999, 2500, 5999];
    for (const i of sample) expect(Buffer.from(await readBlob(reader, oids[i] as string)).toString()).toBe(blobs[i]);
    // four fan-out tables, at most four buckets of ~23 names and the offsets of the objects found
    expect(counted.bytes()).toBeLessThan(4 * 1032 + sample.length * (4 * 40 * 20 + 8));
    expect(counted.bytes()).toBeLessThan(idxBytes / 20);
    expect([...stateOf(reader).packs.values()].every((p) => p.idx === undefined)).toBe(true);
  });

  test('an index rolled up under a reader that listed it: the reader finds its objects in the new pack, writes none again', async () => {
    const writer = await kind.open({ maintenance: false });
    const blobs = Array.from({ length: 600 }, (_, i) => `rolled ${i}\n`);
    const oids: string[] = [];
    for (let k = 0; k < 6; k++) oids.push(...(await inBatch(writer, async () => Promise.all(blobs.slice(k * 100, k * 100 + 100).map(async (b) => writeBlob(writer, b))))));
    const reader = await reopen(kind, writer);
    expect(Buffer.from(await readBlob(reader, oids[0] as string)).toString()).toBe(blobs[0]);
    const listed = [...stateOf(reader).packs.keys()];
    expect(listed.length).toBe(6);
    // another process packs everything into one pack: every index the reader listed is gone
    await packAll(writer);
    expect((await listPacks(writer)).map((p) => p.name).some((name) => listed.includes(name))).toBe(false);
    // writing an object the new pack holds (in a bucket the reader never read) writes nothing: the lookup finds it there
    await inBatch(reader, async () => writeBlob(reader, blobs[542] as string));
    expect((await listPacks(reader)).length).toBe(1);
    for (const i of [1, 150, 333, 599]) expect(Buffer.from(await readBlob(reader, oids[i] as string)).toString()).toBe(blobs[i]);
    if (kind.name === 'disk') expect(fsckStrict(reader).problems).toEqual([]);
  });
});

/** Sizes of the `.idx` files of the repository. */
async function indexSizes(ctx: GitContext): Promise<number[]> {
  const dir = `${ctx.gitdir}/objects/pack`;
  const names = (await ctx.fs.promises.readdir(dir)).map(String).filter((f) => f.endsWith('.idx'));
  return Promise.all(names.map(async (f) => (await ctx.fs.promises.readFile(`${dir}/${f}`)).length));
}
