import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runPipeline, type ContextItem, type ItemState } from '../src/index.js';
import { event, replay, STATS, toNodes } from './random-session.js';

const RANK: Record<Exclude<ItemState, 'summary'>, number> = { full: 0, aged: 1, cleared: 2, summarized: 3 };

// The random sessions must exercise every rule, not just pass trivially.
afterAll(() => {
  expect(STATS.withSummary).toBeGreaterThan(0);
  expect(STATS.withAged).toBeGreaterThan(0);
  expect(STATS.withCleared).toBeGreaterThan(0);
  expect(STATS.overBudget).toBeLessThan(STATS.steps / 4);
});

const session = fc.record({
  events: fc.array(event, { minLength: 1, maxLength: 60 }),
  cuts: fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 12 }),
  budget: fc.integer({ min: 1500, max: 8000 }),
  epochs: fc.boolean(),
  lockEvery: fc.constantFrom(0, 0, 3, 5),
});

describe('pipeline properties over random sessions', () => {
  it('only tightens states, never changes locked or summarized items, and stays under the emergency mark', () => {
    fc.assert(
      fc.property(session, ({ events, cuts, budget, epochs, lockEvery }) => {
        for (const { parent, items, folds, added, ctx } of replay(toNodes(events), cuts, budget, epochs, lockEvery).steps) {
          // Every parent and new item is live, or under exactly one new summary (nested summaries included).
          const next = new Map<string, ContextItem>();
          for (const it of [...items, ...[...folds.values()].flat()]) {
            expect(next.has(it.key)).toBe(false);
            next.set(it.key, it);
          }
          for (const k of added) expect(next.has(k)).toBe(true);
          expect(items.every((i) => i.state !== 'summarized')).toBe(true);
          for (const [key, list] of folds) {
            expect(list.map((i) => i.key)).toEqual(next.get(key)?.folded);
            expect(list.every((i) => i.state === 'summarized' && i.mergedInto === key)).toBe(true);
          }
          for (const p of parent) {
            const n = next.get(p.key);
            expect(n).toBeDefined();
            // A summary stays, or is nested in a later one with its list unchanged.
            if (p.state === 'summary') {
              if (n!.state !== 'summary') expect(n).toEqual({ ...p, state: 'summarized', reason: 'folded', mergedInto: n!.mergedInto });
              continue;
            }
            expect(n!.state).not.toBe('summary');
            expect(RANK[n!.state as Exclude<ItemState, 'summary'>]).toBeGreaterThanOrEqual(RANK[p.state]);
            if (p.locked) expect(n).toEqual(p);
          }
          const history = items.filter((i) => i.state !== 'summarized' && i.role !== 'system').reduce((s, i) => s + i.tokens, 0);
          expect(history).toBeLessThanOrEqual(Math.floor(0.95 * (ctx.historyBudget ?? 0)));
          expect(items.some((i) => i.role === 'system' && i.state === 'full')).toBe(true);
        }
      }),
      { numRuns: Number(process.env.CTXGIT_FC_RUNS ?? 150) },
    );
  });

  it('is idempotent: a second run with no new nodes changes nothing (a third, when the run before folded)', () => {
    fc.assert(
      fc.property(session, ({ events, cuts, budget, epochs, lockEvery }) => {
        for (const { items, folds, ctx } of replay(toNodes(events), cuts, budget, epochs, lockEvery).steps) {
          // Folded steps leave the live list, and with it the critical chain's graph: a result only they kept on the
          // chain may age on the next run, after which the list is settled.
          let settled = items;
          if (folds.size > 0) settled = runPipeline(items, [], ctx).items;
          const again = runPipeline(settled, [], ctx);
          expect(again.folds.size).toBe(0);
          expect(again.items).toEqual(settled);
          expect(again.firstChangedIndex).toBe(settled.length);
        }
      }),
      { numRuns: Number(process.env.CTXGIT_FC_RUNS ?? 100) },
    );
  });

  it('keeps every node exactly once over a whole session: live, or under one summary at any depth', () => {
    fc.assert(
      fc.property(session, ({ events, cuts, budget, epochs, lockEvery }) => {
        const nodes = toNodes(events);
        const { steps, folds } = replay(nodes, cuts, budget, epochs, lockEvery);
        const last = steps.at(-1);
        if (last === undefined) return;
        const seen = new Map<string, number>();
        const walk = (it: ContextItem, into: string | undefined): void => {
          seen.set(it.key, (seen.get(it.key) ?? 0) + 1);
          expect(it.mergedInto).toBe(into);
          if (it.folded !== undefined) {
            const under = folds.get(it.key) ?? [];
            expect(under.map((c) => c.key)).toEqual(it.folded);
            for (const c of under) walk(c, it.key);
          }
        };
        for (const it of last.items) walk(it, undefined);
        expect([...seen.values()].every((n) => n === 1)).toBe(true);
        const taken = new Set(steps.flatMap((s) => s.added));
        expect([...seen.keys()].filter((k) => !k.startsWith('sm_')).sort()).toEqual([...taken].sort());
      }),
      { numRuns: Number(process.env.CTXGIT_FC_RUNS ?? 100) },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(session, ({ events, cuts, budget, epochs, lockEvery }) => {
        const nodes = toNodes(events);
        const run = () => replay(nodes, cuts, budget, epochs, lockEvery).steps.map(({ ctx, ...rest }) => ({ ...rest, now: ctx.now }));
        expect(run()).toEqual(run());
      }),
      { numRuns: 50 },
    );
  });
});
