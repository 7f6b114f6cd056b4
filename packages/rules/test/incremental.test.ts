import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '@ctxgit/dag';
import { defaultRules, runPipeline, RulesCache, RulesOverBudgetError, type ContextItem, type PipelineContext, type PipelineResult } from '../src/index.js';
import { FoldStore, MIN, quarterTokenizer } from './helpers.js';
import { event, toNodes } from './random-session.js';

/** The same run on a deep copy of the parent with a fresh cache and rules: no recorded edits, memos, validity marks or rule state to lean on. */
const fromScratch = (parent: readonly ContextItem[], batch: readonly Node[], ctx: PipelineContext): PipelineResult =>
  runPipeline(structuredClone(parent) as ContextItem[], batch, { ...ctx, cache: new RulesCache() });

const outcome = (run: () => PipelineResult): PipelineResult | string => {
  try {
    return run();
  } catch (e) {
    if (e instanceof RulesOverBudgetError) return e.code;
    throw e;
  }
};

const session = fc.record({
  events: fc.array(event, { minLength: 2, maxLength: 60 }),
  cuts: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 14 }),
  budget: fc.integer({ min: 1500, max: 8000 }),
  epochs: fc.boolean(),
  branchAt: fc.integer({ min: 0, max: 14 }),
});

describe('runs that build on the previous result', () => {
  it('give what a run on a fresh copy of the parent gives, along a chain and after a sibling ran from the same parent', () => {
    fc.assert(
      fc.property(session, ({ events, cuts, budget, epochs, branchAt }) => {
        const nodes = toNodes(events);
        const points = [...new Set(cuts.map((c) => Math.min(c, nodes.length)))].sort((a, b) => a - b).concat(nodes.length);
        let items: readonly ContextItem[] = [];
        const store = new FoldStore();
        // One cache for the session, as a Session keeps one: its runs take the incremental paths (and its rules keep their state).
        const cache = new RulesCache();
        let from = 0;
        for (const [step, to] of points.entries()) {
          if (to <= from) continue;
          const batch = nodes.slice(from, to);
          const ctx: PipelineContext = { now: ((batch.at(-1) as Node).createdAt ?? 0) + MIN, tokenizer: quarterTokenizer, historyBudget: budget, band: { epochs }, foldedOf: store.get, cache };
          if (step === branchAt && batch.length > 1) {
            // A sibling: another continuation of the same parent runs first (a retry with fewer nodes).
            const sibling = outcome(() => runPipeline(items, batch.slice(0, 1), ctx));
            expect(sibling).toEqual(outcome(() => fromScratch(items, batch.slice(0, 1), ctx)));
          }
          const got = outcome(() => runPipeline(items, batch, ctx));
          expect(got).toEqual(outcome(() => fromScratch(items, batch, ctx)));
          if (typeof got === 'string') return;
          // A second run on the result with no new nodes changes nothing (once settled after a fold: the folded steps
          // leave the chain's graph), and the next step builds on the result.
          store.add(got);
          const settled = got.folds.size === 0 ? got.items : runPipeline(got.items, [], ctx).items;
          expect(runPipeline(settled, [], ctx).items).toEqual(settled);
          items = got.items;
          from = to;
        }
      }),
      { numRuns: Number(process.env.CTXGIT_FC_RUNS ?? 150) },
    );
  });

  it('refuses a new key that is already in a parent derived by earlier runs, and one taken by an abandoned sibling is free', () => {
    const nodes = toNodes(Array.from({ length: 12 }, (_, i) => ({ kind: i % 3 === 2 ? ('tool' as const) : ('assistant' as const), words: 5, gap: 1, name: 'bash', size: 10, path: 0, fail: false })));
    const ctx: PipelineContext = { now: 100 * MIN, tokenizer: quarterTokenizer, historyBudget: 1e9 };
    const a = runPipeline([], nodes.slice(0, 6), ctx).items;
    const b = runPipeline(a, nodes.slice(6, 9), ctx).items;
    expect(() => runPipeline(b, [nodes[2] as Node], ctx)).toThrow(/already in the list/);
    // A sibling of b (from a) took nodes 6..8; from a they are new again.
    expect(runPipeline(a, nodes.slice(6, 8), ctx).items.map((it) => it.key)).toEqual([...a.map((it) => it.key), nodes[6]?.id, nodes[7]?.id]);
    expect(() => runPipeline(b, [nodes[7] as Node], ctx)).toThrow(/already in the list/);
  });

  it('ages a result that left the critical chain although it did not change itself', () => {
    const at = (seq: number): number => seq * MIN;
    const n = (seq: number, role: Node['role'], output: string, more: Partial<Node> = {}): Node => ({ id: `n${seq}`, session: 's', seq, createdAt: at(seq), role, output, ...more });
    // n2's result holds ZETA_MARKER_42; n3's own call names it after 300 characters, so n3 reuses n2 (n2 is on the
    // chain) until n4 ages and its arguments are cut to 200 characters; then n2 leaves the chain and must age.
    const nodes: Node[] = [
      n(0, 'user', 'go'),
      n(1, 'assistant', 'looking', { predecessor: 'n0' }),
      n(2, 'tool', 'found ZETA_MARKER_42 here', { name: 'bash', caller: 'n1' }),
      n(3, 'assistant', 'next step', { predecessor: 'n1' }),
      n(4, 'tool', 'ok', { name: 'bash', caller: 'n3', input: { cmd: `${'x'.repeat(300)} ZETA_MARKER_42` } }),
      n(5, 'assistant', 'third', { predecessor: 'n3' }),
      n(6, 'tool', 'fine', { name: 'bash', caller: 'n5' }),
      n(7, 'assistant', 'fourth', { predecessor: 'n5' }),
      n(8, 'tool', 'done', { name: 'bash', caller: 'n7' }),
    ];
    const rules = defaultRules({ tailTurns: 1 });
    const ctx = (seq: number): PipelineContext => ({ now: at(seq), tokenizer: quarterTokenizer, historyBudget: 1e9, band: { epochs: false }, rules });
    let items: readonly ContextItem[] = [];
    for (const [from, to] of [[0, 5], [5, 7], [7, 9]] as const) {
      const got = runPipeline(items, nodes.slice(from, to), ctx(to));
      expect(got).toEqual(runPipeline(structuredClone(items) as ContextItem[], nodes.slice(from, to), { ...ctx(to), rules: defaultRules({ tailTurns: 1 }) }));
      items = got.items;
    }
    expect(items.find((it) => it.key === 'n2')?.state).toBe('aged');
  });
});
