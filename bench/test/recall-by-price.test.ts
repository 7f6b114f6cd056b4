import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EvalResult } from '../src/eval/eval-result.js';
import { PRICINGS } from '../src/eval/pricing.js';
import type { CallRecord } from '../src/eval/replay-policy.js';
import { SummaryAccumulator } from '../src/eval/summary-accumulator.js';
import type { BenchResults } from '../src/report/bench-results.js';
import { targetsTable } from '../src/report/targets-table.js';

/** A call that reused `reused` identifiers, `visible` of them in its request. */
const call = (reused: number, visible: number): CallRecord =>
  ({ tokens: 100, overBudget: false, invalid: false, prefixBreak: false, rewrittenTokens: 0, refused: null, latestUserPresent: true, systemPresent: true, sharedPrefixTokens: 0, sharedPrefixBytes: 0, bytes: 400, reused, visible, reusedShaped: reused, visibleShaped: visible, shape: { segments: [] } }) as unknown as CallRecord;

describe('recall of the runs at each price model', () => {
  it('sums each priced run of a policy apart from the run its other figures come from', () => {
    const acc = new SummaryAccumulator('ctxgit', 8000, 'c', PRICINGS);
    const [a, b, c] = PRICINGS.map((p) => p.id) as [string, string, string];
    acc.add([call(4, 4)], new Map(), new Map([[a, [call(4, 4)]], [b, [call(4, 3)]], [c, [call(4, 2)]]]));
    acc.add([call(2, 2)], new Map(), new Map([[a, [call(2, 2)]], [b, [call(2, 2)]], [c, [call(2, 1)]]]));
    const s = acc.summarize(null);
    expect(s.dependencyRecall.share).toBe(1);
    expect(s.recallByPrice).toEqual({ [a]: { reused: 6, visible: 6, share: 1 }, [b]: { reused: 6, visible: 5, share: 5 / 6 }, [c]: { reused: 6, visible: 3, share: 0.5 } });
    // A policy run once (not by price) has none.
    const plain = new SummaryAccumulator('masking-3', 8000, 'c', PRICINGS);
    plain.add([call(1, 1)], new Map());
    expect(plain.summarize(null).recallByPrice).toBeUndefined();
  });

  it("shows the lowest in the targets table, and '–' for a result written before it was measured", async () => {
    const results = JSON.parse(await readFile(fileURLToPath(new URL('./fixtures/results.json', import.meta.url)), 'utf8')) as BenchResults;
    if (!results.evaluation.ok) throw new Error('the fixture has an evaluation');
    const result: EvalResult = results.evaluation.result;
    const before = targetsTable(result);
    expect(before.split('\n')[0]).toContain('| recall, lowest of the priced runs |');
    const firstRow = (table: string): string[] => (table.split('\n')[2] ?? '').split('|').map((cell) => cell.trim());
    const column = before.split('\n')[0]?.split('|').map((cell) => cell.trim()).indexOf('recall, lowest of the priced runs') ?? -1;
    expect(firstRow(before)[column]).toBe('–');
    const summaries = result.summaries.map((s) => (s.policy === 'ctxgit' ? { ...s, recallByPrice: { x: { reused: 10, visible: 9, share: 0.9 }, y: { reused: 10, visible: 10, share: 1 } } } : s));
    expect(firstRow(targetsTable({ ...result, summaries }))[column]).toBe('90.0 %');
  });
});
