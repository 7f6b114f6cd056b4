import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { joinIndexes, mergeIndexNames } from '../src/git/internal/index-join.js';
import { encodeIndex, indexEntries } from '../src/git/internal/pack-codec.js';

const sum = (s: string): Buffer => createHash('sha1').update(s).digest();
const oidOf = (n: number): string => sum(`object ${n}`).toString('hex');

/** An index of made-up entries: offsets past 2 GiB included, so the 64-bit table is exercised. */
const entryArb = fc.record({ offset: fc.oneof(fc.integer({ min: 12, max: 0x7fff_ffff }), fc.integer({ min: 0x8000_0000, max: 2 ** 40 })), crc: fc.integer({ min: 0, max: 0xffff_ffff }) });
const partsArb = fc.array(fc.array(entryArb, { maxLength: 40 }), { minLength: 1, maxLength: 6 });

describe('joined pack index', () => {
  test('is, byte for byte, the index encodeIndex makes of the parts shifted entries (property)', () => {
    fc.assert(
      fc.property(partsArb, fc.array(fc.integer({ min: 0, max: 2 ** 33 }), { minLength: 6, maxLength: 6 }), (parts, shifts) => {
        let n = 0;
        const idxs = parts.map((entries, k) => encodeIndex(entries.map((e) => ({ oid: oidOf(n++), ...e })), sum(`pack ${k}`)));
        const order = mergeIndexNames(idxs);
        expect(order).not.toBeNull();
        const packSum = sum('joined');
        const joined = joinIndexes(idxs, order as NonNullable<typeof order>, shifts, packSum);
        const plain = encodeIndex(
          idxs.flatMap((idx, k) => indexEntries(idx).map((e) => ({ ...e, offset: e.offset + (shifts[k] as number) }))),
          packSum,
        );
        expect(joined.equals(plain)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('is null when two parts list the same object, wherever it falls in the order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), fc.nat(), (a, b, pick) => {
        const left = Array.from({ length: a }, (_, i) => oidOf(i));
        const right = Array.from({ length: b }, (_, i) => oidOf(1000 + i));
        right.push(left[pick % a] as string);
        const idx = (oids: string[]): Buffer => encodeIndex(oids.map((oid, i) => ({ oid, offset: 12 + i, crc: i })), sum(oids.join()));
        expect(mergeIndexNames([idx(left), idx(right)])).toBeNull();
        expect(mergeIndexNames([idx(left), idx(right.slice(0, -1))])).not.toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});
