import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignOrderKeys } from '../src/store/layout/assign-order-keys.js';
import { itemPath, orderKeyOfFileName, pathSafeKey } from '../src/store/layout/item-path.js';
import { orderKeyBetween } from '../src/store/layout/order-key.js';

/** Git's tree order: bytewise on names (all entries compared here are blobs in one folder, or folders at one level). */
const gitOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('order keys', () => {
  it('appends as zero-padded integers', () => {
    expect(orderKeyBetween(null, null)).toBe('000000001');
    expect(orderKeyBetween('000000041', null)).toBe('000000042');
    expect(orderKeyBetween('0000000415', null)).toBe('000000042');
  });

  it('slots keys between neighbours, before the first one too', () => {
    expect(orderKeyBetween('000000003', '000000004')).toBe('0000000035');
    expect(orderKeyBetween(null, '000000001')).toBe('0000000005');
    expect(orderKeyBetween('000000003', '000000009')).toBe('000000004');
  });

  it('property: any sequence of insertions stays strictly ordered, 9-digit prefixed, never ending in 0 after the integer', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (picks) => {
        const keys: string[] = [];
        for (const p of picks) {
          const at = p % (keys.length + 1);
          const key = orderKeyBetween(keys[at - 1] ?? null, keys[at] ?? null);
          keys.splice(at, 0, key);
        }
        for (let i = 1; i < keys.length; i++) expect((keys[i - 1] as string) < (keys[i] as string)).toBe(true);
        for (const k of keys) {
          expect(k).toMatch(/^\d{9}(\d*[1-9])?$/);
        }
      }),
    );
  });
});

describe('assignOrderKeys', () => {
  it('keeps the keys of unchanged items and slots a summary before its folded run', () => {
    const prev = new Map([
      ['a', '000000001'],
      ['b', '000000002'],
      ['c', '000000003'],
    ]);
    expect(assignOrderKeys(['a', 'sm_1', 'b', 'c', 'd'], (k) => prev.get(k))).toEqual(['000000001', '0000000015', '000000002', '000000003', '000000004']);
    expect(assignOrderKeys(['sm_0', 'a', 'b'], (k) => prev.get(k))).toEqual(['0000000005', '000000001', '000000002']);
  });

  it('property: keys increase in list order, kept items keep theirs when the order allows, tree order is item order', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 60 }), (inserts, shuffle) => {
        const first = assignOrderKeys(
          Array.from({ length: 40 }, (_, i) => `n${i}`),
          () => undefined,
        );
        const prev = new Map<string, string>(first.map((k, i) => [`n${i}`, k] as const));
        const list: string[] = Array.from({ length: 40 }, (_, i) => `n${i}`);
        inserts.forEach((p, j) => list.splice(p % (list.length + 1), 0, `new${j}`));
        shuffle.slice(0, 3).forEach((p) => {
          const [moved] = list.splice(p % list.length, 1);
          if (moved !== undefined) list.push(moved);
        });
        const keys = assignOrderKeys(list, (k) => prev.get(k));
        for (let i = 1; i < keys.length; i++) expect((keys[i - 1] as string) < (keys[i] as string)).toBe(true);
        const names = list.map((k, i) => itemPath(keys[i] as string, k).join('/'));
        expect([...names].sort(gitOrder)).toEqual(names);
        expect(names.map((n) => orderKeyOfFileName(n.split('/')[3] as string))).toEqual(keys);
        const kept = list.filter((k, i) => prev.get(k) === keys[i]).length;
        expect(kept).toBeGreaterThanOrEqual(40 - 3);
      }),
    );
  });
});

describe('item paths', () => {
  it('shards by blocks of 100 positions under blocks of 10,000', () => {
    expect(itemPath('000012345', 'abc')).toEqual(['items', '00001', '23', '000012345-abc.json']);
    expect(itemPath('0000123455', 'sm_x')).toEqual(['items', '00001', '23', '0000123455-sm_x.json']);
  });

  it('escapes characters that are not safe in a file name', () => {
    expect(pathSafeKey('a/b c')).toBe('a%002fb%0020c');
    expect(pathSafeKey('.hidden')).toBe('%002ehidden');
    expect(pathSafeKey('x-y~z')).toBe('x%002dy~z');
  });
});
