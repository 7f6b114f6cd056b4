import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runPipeline, type ItemState } from '../src/index.js';
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
        for (const { parent, items, ctx } of replay(toNodes(events), cuts, budget, epochs, lockEvery).steps) {
          const next = new Map(items.map((i) => [i.key, i] as const));
          for (const p of parent) {
            const n = next.get(p.key);
            expect(n).toBeDefined();
            // A summary stays, or is nested in a later one with its list unchanged; a summarized item is never rewritten.
            if (p.state === 'summary') {
              if (n!.state !== 'summary') expect(n).toEqual({ ...p, state: 'summarized', reason: 'folded', mergedInto: n!.mergedInto });
              continue;
            }
            if (p.state === 'summarized') expect(n).toEqual(p);
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

  it('is idempotent: a second run with no new nodes changes nothing', () => {
    fc.assert(
      fc.property(session, ({ events, cuts, budget, epochs, lockEvery }) => {
        for (const { items, ctx } of replay(toNodes(events), cuts, budget, epochs, lockEvery).steps) {
          const again = runPipeline(items, [], ctx);
          expect(again.items).toEqual(items);
          expect(again.firstChangedIndex).toBe(items.length);
        }
      }),
      { numRuns: Number(process.env.CTXGIT_FC_RUNS ?? 100) },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(session, ({ events, cuts, budget, epochs, lockEvery }) => {
        const nodes = toNodes(events);
        expect(replay(nodes, cuts, budget, epochs, lockEvery)).toEqual(replay(nodes, cuts, budget, epochs, lockEvery));
      }),
      { numRuns: 50 },
    );
  });
});
