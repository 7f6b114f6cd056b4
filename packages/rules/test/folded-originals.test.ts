import { describe, expect, it } from 'vitest';
import { FoldIndex } from '../src/folded-originals.js';
import { RulesFoldedNeededError, type ContextItem } from '../src/index.js';

const item = (key: string, extra: Partial<ContextItem> = {}): ContextItem =>
  ({ key, sourceNodeId: key, role: 'tool', state: 'full', locked: false, blocks: [{ type: 'text', text: key }], tokens: 1, ...extra }) as ContextItem;
const summary = (key: string, folded: string[]): ContextItem => item(key, { role: 'user', state: 'summary', folded });
const under = (key: string, n: number): ContextItem[] => Array.from({ length: n }, (_, i) => item(`${key}${i}`, { state: 'summarized', mergedInto: key }));

describe('FoldIndex.briefSources', () => {
  // A live list of three parent summaries, one nesting another (C folded c0 and B2, which folded b0 and b1).
  const nested = summary('B2', ['b0', 'b1']);
  const list = [summary('A', ['a0', 'a1']), summary('B', ['B1']), summary('C', ['c0', 'B2'])];
  const stored = new Map<string, readonly ContextItem[]>([
    ['A', under('a', 2).map((it, i) => ({ ...it, key: `a${i}`, mergedInto: 'A' }))],
    ['B', [item('B1', { state: 'summarized', mergedInto: 'B' })]],
    ['C', [item('c0', { state: 'summarized', mergedInto: 'C' }), { ...nested, state: 'summarized', mergedInto: 'C' }]],
    ['B2', under('b', 2).map((it, i) => ({ ...it, key: `b${i}`, mergedInto: 'B2' }))],
  ]);
  const needed = (lookup: (k: string) => readonly ContextItem[] | undefined, limit = 100): readonly string[] => {
    try {
      new FoldIndex(list, lookup).briefSources(['A', 'B', 'C'], limit);
      return [];
    } catch (err) {
      expect(err).toBeInstanceOf(RulesFoldedNeededError);
      const e = err as RulesFoldedNeededError;
      expect(e.data['summary']).toBe((e.data['summaries'] as string[])[0]);
      return e.data['summaries'] as string[];
    }
  };

  it('names every summary it opens but cannot read at once, one nesting level per run', () => {
    expect(needed(() => undefined)).toEqual(['C', 'B', 'A']);
    const one = new Map([...stored].filter(([k]) => k !== 'B2'));
    expect(needed((k) => one.get(k))).toEqual(['B2']);
    expect(needed((k) => stored.get(k))).toEqual([]);
    // a summary the limit leaves closed is never asked for
    expect(needed((k) => one.get(k), 4)).toEqual([]);
  });

  it('opens the summaries down to the originals, in list order, while the limit allows, the newest first', () => {
    const sources = (limit: number): string[] => new FoldIndex(list, (k) => stored.get(k)).briefSources(['A', 'B', 'C'], limit).map((it) => it.key);
    expect(sources(100)).toEqual(['a0', 'a1', 'B1', 'c0', 'b0', 'b1']);
    // 5 items: C opens, then B2 inside it, then B; A would make 6, so it stays a summary, read through its brief
    expect(sources(5)).toEqual(['A', 'B1', 'c0', 'b0', 'b1']);
    // 4: C and B open, B2 and A do not
    expect(sources(4)).toEqual(['A', 'B1', 'c0', 'B2']);
    // 3: only B (one item for one) opens
    expect(sources(3)).toEqual(['A', 'B1', 'C']);
    expect(sources(0)).toEqual(['A', 'B', 'C']);
  });
});
