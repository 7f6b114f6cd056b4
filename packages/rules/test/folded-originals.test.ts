import { describe, expect, it } from 'vitest';
import { FoldIndex } from '../src/folded-originals.js';
import { RulesFoldedNeededError, type ContextItem } from '../src/index.js';

const item = (key: string, extra: Partial<ContextItem> = {}): ContextItem =>
  ({ key, sourceNodeId: key, role: 'tool', state: 'full', locked: false, blocks: [{ type: 'text', text: key }], tokens: 1, ...extra }) as ContextItem;
const summary = (key: string, folded: string[]): ContextItem => item(key, { role: 'user', state: 'summary', folded });
const under = (key: string, n: number): ContextItem[] => Array.from({ length: n }, (_, i) => item(`${key}${i}`, { state: 'summarized', mergedInto: key }));

describe('FoldIndex.originalsOf', () => {
  // A live list of three parent summaries, one nesting another (C folded c0 and B2, which folded b0 and b1).
  const nested = summary('B2', ['b0', 'b1']);
  const list = [summary('A', ['a0', 'a1']), summary('B', ['B1']), summary('C', ['c0', 'B2'])];
  const stored = new Map<string, readonly ContextItem[]>([
    ['A', under('a', 2).map((it, i) => ({ ...it, key: `a${i}`, mergedInto: 'A' }))],
    ['B', [item('B1', { state: 'summarized', mergedInto: 'B' })]],
    ['C', [item('c0', { state: 'summarized', mergedInto: 'C' }), { ...nested, state: 'summarized', mergedInto: 'C' }]],
    ['B2', under('b', 2).map((it, i) => ({ ...it, key: `b${i}`, mergedInto: 'B2' }))],
  ]);
  it('names the summary it cannot open', () => {
    const index = new FoldIndex(list, (k) => (k === 'B2' ? undefined : stored.get(k)));
    expect(() => index.originalsOf(list[2] as ContextItem)).toThrow(RulesFoldedNeededError);
    expect(index.originalsOf(list[0] as ContextItem).map((it) => it.key)).toEqual(['a0', 'a1']);
  });

  it('gives the originals in list order once every summary is open', () => {
    const index = new FoldIndex(list, (k) => stored.get(k));
    expect(list.flatMap((s) => index.originalsOf(s)).map((it) => it.key)).toEqual(['a0', 'a1', 'B1', 'c0', 'b0', 'b1']);
  });
});
