import { describe, expect, it } from 'vitest';
import type { ContextItem } from '@ctxgit/rules';
import { StoredEntries } from '../src/store/stored-entries.js';
import { ChunkedList } from '../src/store/layout/chunked-list.js';

const item = (key: string): ContextItem => ({ key, sourceNodeId: key, role: 'user', state: 'full', locked: false, blocks: [], tokens: 1, reason: 'new', touchedAt: 0 });
const entries = (base: StoredEntries | undefined, keys: readonly string[]): StoredEntries => {
  const items = keys.map(item);
  const orderKeys = keys.map((_, i) => String(i + 1).padStart(9, '0'));
  const oids = keys.map((k) => `oid-${k}`);
  const origins = keys.map((k) => (k.startsWith('o') ? `origin-${k}` : undefined));
  const lists = [ChunkedList.from(orderKeys), ChunkedList.from(oids), ChunkedList.from(origins)] as const;
  return base === undefined ? StoredEntries.build(items, ...lists) : StoredEntries.extend(base, items, ...lists);
};

describe('StoredEntries', () => {
  it('finds every item of a commit and nothing else, after appends along a line of commits', () => {
    const a = entries(undefined, ['s', 'u1', 'o2']);
    const b = entries(a, ['s', 'u1', 'o2', 'u3']);
    const c = entries(b, ['s', 'u1', 'o2', 'u3', 'o4']);
    expect(c.get('o4')).toEqual({ item: item('o4'), orderKey: '000000005', oid: 'oid-o4', origin: 'origin-o4' });
    expect(c.get('u1')).toEqual({ item: item('u1'), orderKey: '000000002', oid: 'oid-u1' });
    expect([a.has('u3'), a.has('o4'), b.has('o4'), b.has('u3')]).toEqual([false, false, false, true]);
    expect(a.get('o2')?.origin).toBe('origin-o2');
    expect(c.indexOf('nope')).toBe(-1);
  });

  it('keeps siblings apart: two children of one base append different keys at the same positions', () => {
    const base = entries(undefined, ['s', 'u1']);
    const left = entries(base, ['s', 'u1', 'x', 'y']);
    const right = entries(base, ['s', 'u1', 'y', 'z']);
    expect([left.has('x'), left.has('y'), left.has('z')]).toEqual([true, true, false]);
    expect([right.has('x'), right.has('y'), right.has('z')]).toEqual([false, true, true]);
    expect(left.get('y')?.orderKey).toBe('000000004');
    expect(right.get('y')?.orderKey).toBe('000000003');
    expect([base.has('x'), base.has('y'), base.has('z')]).toEqual([false, false, false]);
    // a grandchild of the left branch still sees the left keys where they are
    const next = entries(left, ['s', 'u1', 'x', 'y', 'z']);
    expect([next.indexOf('x'), next.indexOf('y'), next.indexOf('z')]).toEqual([2, 3, 4]);
    expect(right.indexOf('z')).toBe(3);
  });

  it('builds its own index for a list whose keys moved', () => {
    const base = entries(undefined, ['s', 'a', 'b']);
    const folded = entries(undefined, ['s', 'sm_1', 'a', 'b']);
    expect([folded.indexOf('sm_1'), folded.indexOf('a'), base.indexOf('a')]).toEqual([1, 2, 1]);
  });

  it('ChunkedList: a copy that patches and appends leaves the original as it was', () => {
    const a = ChunkedList.from(Array.from({ length: 2500 }, (_, i) => i));
    const b = a.with([[3, -3], [2047, -2047]], [2500, 2501]);
    expect([a.at(3), a.at(2047), a.at(2500), a.length]).toEqual([3, 2047, undefined, 2500]);
    expect([b.at(3), b.at(2047), b.at(2048), b.at(2501), b.at(2502), b.length]).toEqual([-3, -2047, 2048, 2501, undefined, 2502]);
    const c = ChunkedList.from<number>([]).with([], Array.from({ length: 1030 }, (_, i) => i));
    expect([c.length, c.at(1029), c.at(1024)]).toEqual([1030, 1029, 1024]);
  });
});
