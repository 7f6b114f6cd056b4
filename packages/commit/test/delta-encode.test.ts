// Issue 17: git's delta encoding (copy/insert instructions against any offset of the base), checked by applying
// the deltas with the pack reader's applier, and by real git reading packs made of them.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { applyDelta } from '../src/git/internal/delta-apply.js';
import { createDelta, indexBase } from '../src/git/internal/delta-encode.js';
import { encodePack } from '../src/git/internal/pack-codec.js';
import type { PackObject } from '../src/git/internal/pack-codec.js';
import { decodePack } from '../src/git/internal/pack-decode.js';
import { listPacks, maintain, storePack } from '../src/git/internal/pack-store.js';
import { openGit } from '../src/git/open-git.js';
import { readBlob } from '../src/git/read-blob.js';
import { fsckStrict, git, tempRepoDir } from './git-fixtures.js';

/** A target made from the base by edits: each replaces a span of the base with new bytes (insert, delete, change). */
const edited = fc
  .tuple(
    fc.uint8Array({ minLength: 0, maxLength: 3000 }),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 200 }), fc.uint8Array({ maxLength: 100 })), { maxLength: 8 }),
    fc.boolean(),
  )
  .map(([seed, edits, text]) => {
    // text-like bases repeat themselves (blocks that hash alike), random ones do not
    const base = text ? Buffer.from(Array.from(seed, (b) => `line ${b % 13}: ${'x'.repeat(b % 7)}\n`).join('').slice(0, 3000)) : Buffer.from(seed);
    let target = Buffer.from(base);
    for (const [at, cut, bytes] of edits) {
      const p = target.length === 0 ? 0 : at % target.length;
      target = Buffer.concat([target.subarray(0, p), Buffer.from(bytes), target.subarray(Math.min(target.length, p + cut))]);
    }
    return { base, target };
  });

const blobOid = (content: Uint8Array): string => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
const blob = (content: Buffer): PackObject => ({ oid: blobOid(content), type: 'blob', content });

describe('createDelta', () => {
  test('property: applying the delta to its base rebuilds the target (edited versions of a base, and unrelated buffers)', () => {
    fc.assert(
      fc.property(fc.oneof(edited, fc.record({ base: fc.uint8Array({ maxLength: 2000 }), target: fc.uint8Array({ maxLength: 2000 }) })), ({ base, target }) => {
        const delta = createDelta(indexBase(base), target) as Buffer;
        expect(Buffer.compare(applyDelta(base, delta, 'test'), Buffer.from(target))).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  test('property: with a size limit the delta is null or within it, and still rebuilds the target', () => {
    fc.assert(
      fc.property(edited, fc.nat({ max: 4000 }), ({ base, target }, maxSize) => {
        const delta = createDelta(indexBase(base), target, maxSize);
        if (delta === null) return;
        expect(delta.length).toBeLessThanOrEqual(maxSize);
        expect(Buffer.compare(applyDelta(base, delta, 'test'), target)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  test('a change in the middle costs the change: what is shared before and after it is copied from the base', () => {
    const base = Buffer.from(Array.from({ length: 200 }, (_, i) => `entry ${i} of a long list\n`).join(''));
    const target = Buffer.concat([base.subarray(0, 1000), Buffer.from('a new entry\n'), base.subarray(1000, 3000), base.subarray(3100)]);
    const delta = createDelta(indexBase(base), target) as Buffer;
    expect(delta.length).toBeLessThan(40);
    expect(applyDelta(base, delta, 'test').equals(target)).toBe(true);
  });
});

describe('packs of such deltas', () => {
  /** Versions of a document: each one a few lines changed, added or removed from the last. */
  const versions = (): Buffer[] => {
    const out: Buffer[] = [];
    let lines = Array.from({ length: 120 }, (_, i) => `{"item":${i},"text":"line ${i} of the document"}`);
    for (let v = 0; v < 30; v++) {
      lines = lines.map((l, i) => (i % 29 === v % 29 ? `${l} (edited in v${v})` : l));
      if (v % 3 === 0) lines.splice(v * 3, 1);
      lines.push(`{"added":${v}}`);
      out.push(Buffer.from(`${lines.join('\n')}\n`));
    }
    return out;
  };

  test('encodePack gives the same bytes whatever the order of its input', () => {
    const objects = versions().map(blob);
    expect(encodePack([...objects].reverse()).checksum).toBe(encodePack(objects).checksum);
  });

  test('git reads them: fsck --strict is clean, cat-file gives every object, verify-pack shows the chains; our decoder agrees', async () => {
    const ctx = await openGit({ dir: await tempRepoDir(), fsync: false, maintenance: false });
    const objects = versions().map(blob);
    const encoded = encodePack(objects);
    const name = await storePack(ctx, encoded);
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
    for (const o of objects) expect(Buffer.from(git(ctx, ['cat-file', 'blob', o.oid]), 'utf8').equals(o.content as Buffer)).toBe(true);
    const verify = git(ctx, ['verify-pack', '-v', `${ctx.gitdir}/objects/pack/${name}.idx`]);
    const deltas = verify.split('\n').filter((l) => /^[0-9a-f]{40} blob +\d+ \d+ \d+ \d+ [0-9a-f]{40}$/u.test(l));
    expect(deltas.length).toBe(objects.length - 1);
    // one version whole, every other a delta of a few edits: the pack is far smaller than the objects deflated
    expect(encoded.pack.length * 5).toBeLessThan(objects.reduce((n, o) => n + o.content.length, 0));
    const decoded = await decodePack(encoded.pack, encoded.idx, name, () => Promise.reject(new Error('no REF_DELTA')), false);
    expect(new Map(decoded.map((o) => [o.oid, Buffer.from(o.content).toString()]))).toEqual(new Map(objects.map((o) => [o.oid, Buffer.from(o.content).toString()])));
  });

  test('gc packs a git-made pack (REF_DELTA entries) and ours again, and git reads the result', async () => {
    const ctx = await openGit({ dir: await tempRepoDir(), fsync: false, maintenance: false });
    const objects = versions().map(blob);
    const first = objects.slice(0, 15);
    for (const o of first) expect(git(ctx, ['hash-object', '-w', '--stdin'], Buffer.from(o.content).toString()).trim()).toBe(o.oid);
    git(ctx, ['pack-objects', '-q', `${ctx.gitdir}/objects/pack/pack`], first.map((o) => `${o.oid}\n`).join(''));
    git(ctx, ['prune-packed']);
    expect(git(ctx, ['verify-pack', '-v', ...(await listPacks(ctx)).map((p) => `${ctx.gitdir}/objects/pack/${p.name}.idx`)])).toMatch(/ [0-9a-f]{40}\n/u);
    await storePack(ctx, encodePack(objects.slice(15)));
    const r = await maintain(ctx, true);
    expect(r.objects).toBe(objects.length);
    expect((await listPacks(ctx)).length).toBe(1);
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
    for (const o of objects) expect(Buffer.from(git(ctx, ['cat-file', 'blob', o.oid]), 'utf8').equals(o.content as Buffer)).toBe(true);
  });

  test('gc packs a pack of more objects than a call can take arguments (a long session holds ~300,000)', async () => {
    const ctx = await openGit({ memory: true, fsync: false, maintenance: false });
    // more than the ~125,000 arguments a spread into push takes on node's default stack
    const objects = Array.from({ length: 140_000 }, (_, i) => blob(Buffer.from(`${i}\n`)));
    await storePack(ctx, encodePack(objects, false));
    await storePack(ctx, encodePack([blob(Buffer.from('one more\n'))], false));
    const r = await maintain(ctx, true);
    expect(r.objects).toBe(objects.length + 1);
    expect((await listPacks(ctx)).length).toBe(1);
  });

  test("small objects read from a pack do not keep zlib's 16 KiB output chunks alive (a gc holds every object)", async () => {
    const objects = Array.from({ length: 50 }, (_, i) => blob(Buffer.from(`object ${i}: ${'x'.repeat(i * 7)}\n`)));
    const encoded = encodePack(objects, false);
    const decoded = await decodePack(encoded.pack, encoded.idx, 'test', () => Promise.reject(new Error('no REF_DELTA')), false);
    // the memory behind each is at most node's 8 KiB pool slab, shared with the others
    for (const o of decoded) expect(Buffer.from(o.content.buffer).length).toBeLessThanOrEqual(8192);
    const ctx = await openGit({ memory: true, fsync: false, maintenance: false });
    await storePack(ctx, encoded);
    const fresh = await openGit({ memory: true, fs: ctx.fs, fsync: false, maintenance: false });
    for (const o of objects.slice(0, 5)) expect((await readBlob(fresh, o.oid)).buffer.byteLength).toBeLessThanOrEqual(8192);
  });

  test('objects decoded with their stored entries pack again with those entries copied (same pack), in any order', async () => {
    const encoded = encodePack(versions().map(blob));
    const decoded = await decodePack(encoded.pack, encoded.idx, 'test', () => Promise.reject(new Error('no REF_DELTA')), true);
    expect(decoded.filter((o) => o.stored?.base !== undefined).length).toBe(decoded.length - 1);
    expect(encodePack([...decoded].reverse()).pack.equals(encoded.pack)).toBe(true);
  });

  test('stored deltas that would make a cycle (A of B in one pack, B of A in another) are searched again; git reads the pack', async () => {
    const [a, b] = versions().slice(-2).map(blob) as [PackObject, PackObject];
    const one = encodePack([a, b]);
    const [x, y] = await decodePack(one.pack, one.idx, 'test', () => Promise.reject(new Error('no REF_DELTA')), true);
    const [delta, base] = (x?.stored?.base === undefined ? [y, x] : [x, y]) as [PackObject, PackObject];
    const reverse = createDelta(indexBase(delta.content), base.content) as Buffer;
    const cyclic = { ...base, stored: { data: deflateSync(reverse), size: reverse.length, base: delta.oid } };
    const ctx = await openGit({ dir: await tempRepoDir(), fsync: false, maintenance: false });
    await storePack(ctx, encodePack([cyclic, delta]));
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
    for (const o of [a, b]) expect(Buffer.from(git(ctx, ['cat-file', 'blob', o.oid]), 'utf8').equals(o.content as Buffer)).toBe(true);
  });
});
