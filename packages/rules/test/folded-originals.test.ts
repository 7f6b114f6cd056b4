import { describe, expect, it } from 'vitest';
import { FoldIndex } from '../src/folded-originals.js';
import { RulesFoldedNeededError, type ContextItem } from '../src/index.js';

const item = (key: string, extra: Partial<ContextItem> = {}): ContextItem =>
  ({ key, sourceNodeId: key, role: 'tool', state: 'full', locked: false, blocks: [{ type: 'text', text: key }], tokens: 1, ...extra }) as ContextItem;
const summary = (key: string, folded: string[]): ContextItem => item(key, { role: 'user', state: 'summary', folded });
const under = (key: string, n: number): ContextItem[] => Array.from({ length: n }, (_, i) => item(`${key}${i}`, { state: 'summarized', mergedInto: key }));

describe('FoldIndex.originals', () => {
  // A live list of three parent summaries, one nesting another (C folded c0 and B2, which folded b0 and b1).
  const nested = summary('B2', ['b0', 'b1']);
  const list = [summary('A', ['a0', 'a1']), summary('B', ['B1']), summary('C', ['c0', 'B2'])];
  const stored = new Map<string, readonly ContextItem[]>([
    ['A', under('a', 2).map((it, i) => ({ ...it, key: `a${i}`, mergedInto: 'A' }))],
    ['B', [item('B1', { state: 'summarized', mergedInto: 'B' })]],
    ['C', [item('c0', { state: 'summarized', mergedInto: 'C' }), { ...nested, state: 'summarized', mergedInto: 'C' }]],
    ['B2', under('b', 2).map((it, i) => ({ ...it, key: `b${i}`, mergedInto: 'B2' }))],
  ]);
  const needed = (lookup: (k: string) => readonly ContextItem[] | undefined): readonly string[] => {
    try {
      new FoldIndex(list, lookup).originals(['A', 'B', 'C']);
      return [];
    } catch (err) {
      expect(err).toBeInstanceOf(RulesFoldedNeededError);
      const e = err as RulesFoldedNeededError;
      expect(e.data['summary']).toBe((e.data['summaries'] as string[])[0]);
      return e.data['summaries'] as string[];
    }
  };

  it('names every summary its walk cannot open at once, one nesting level per run', () => {
    expect(needed(() => undefined)).toEqual(['A', 'B', 'C']);
    const one = new Map([...stored].filter(([k]) => k !== 'B2'));
    expect(needed((k) => one.get(k))).toEqual(['B2']);
    expect(needed((k) => stored.get(k))).toEqual([]);
  });

  it('gives the originals in list order once every summary is open', () => {
    const keys = new FoldIndex(list, (k) => stored.get(k)).originals(['A', 'B', 'C']).map((it) => it.key);
    expect(keys).toEqual(['a0', 'a1', 'B1', 'c0', 'b0', 'b1']);
  });
});
