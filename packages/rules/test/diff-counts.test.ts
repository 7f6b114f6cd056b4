import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '@ctxgit/dag';
import { runPipeline, RulesOverBudgetError, type ContextItem, type PipelineContext } from '../src/index.js';
import { deepEqual } from '../src/deep-equal.js';
import { diffCounts } from '../src/diff-counts.js';
import type { RuleReport } from '../src/pipeline.js';
import { FoldStore, MIN, quarterTokenizer } from './helpers.js';
import { event, toNodes, type Event } from './random-session.js';

/** The plain reference: every item of `next` looked up by key in `prev`, compared whole. */
function plainCounts(rule: string, prev: readonly ContextItem[], next: readonly ContextItem[]): RuleReport {
  const before = new Map(prev.map((x) => [x.key, x] as const));
  let changed = 0, capped = 0, aged = 0, cleared = 0, folded = 0, summaries = 0;
  for (const it of next) {
    const p = before.get(it.key);
    if (p === undefined) {
      if (it.state === 'summary') summaries++;
      continue;
    }
    if (!deepEqual({ ...p, tokens: 0 }, { ...it, tokens: 0 })) changed++;
    if (it.reason === 'capped' && p.reason !== 'capped') capped++;
    if (it.state === 'aged' && p.state === 'full') aged++;
    if (it.state === 'cleared' && p.state !== 'cleared') cleared++;
    if (it.state === 'summarized' && p.state !== 'summarized' && p.state !== 'summary') folded++;
  }
  return { rule, changed, capped, aged, cleared, folded, summaries };
}

/** Three tasks of growing tool results a few minutes apart, more than a 6,000-token history holds: it ages, folds and summarizes. */
const FOLDING_SESSION: Event[] = [
  { kind: 'user', words: 20, gap: 0 },
  ...Array.from({ length: 40 }, (_, i): Event =>
    i % 8 === 7 ? { kind: 'user', words: 20, gap: 5 } : i % 4 === 3 ? { kind: 'assistant', words: 30, gap: 2 } : { kind: 'tool', name: i % 2 === 0 ? 'open' : 'bash', size: 300 + 100 * i, path: i % 4, fail: false, gap: 3 },
  ),
];

describe('diffCounts', () => {
  it('property: counts what the plain comparison counts, on the lists successive runs of random sessions give', () => {
    const seen = { changed: 0, aged: 0, folded: 0, summaries: 0 };
    fc.assert(
      fc.property(fc.array(event, { minLength: 2, maxLength: 50 }), fc.integer({ min: 1200, max: 6000 }), (events, budget) => {
        const nodes = toNodes(events);
        const store = new FoldStore();
        let items: readonly ContextItem[] = [];
        let flat: readonly ContextItem[] = [];
        for (let from = 0; from < nodes.length; from += 5) {
          const batch = nodes.slice(from, from + 5);
          const ctx: PipelineContext = { now: ((batch.at(-1) as Node).createdAt ?? 0) + MIN, tokenizer: quarterTokenizer, historyBudget: budget, foldedOf: store.get };
          let next: readonly ContextItem[];
          try {
            next = store.add(runPipeline(items, batch, ctx)).items;
          } catch (e) {
            if (e instanceof RulesOverBudgetError) return;
            throw e;
          }
          // the lists with every summary followed by what it folded: items aged, cleared, capped and folded between them
          const nextFlat = store.flat(next);
          const counts = diffCounts('r', flat, nextFlat);
          expect(counts).toEqual(plainCounts('r', flat, nextFlat));
          for (const k of ['changed', 'aged', 'folded', 'summaries'] as const) seen[k] += counts[k];
          // an equal copy: nothing counted
          expect(diffCounts('r', nextFlat, structuredClone(nextFlat) as ContextItem[])).toEqual(plainCounts('r', nextFlat, nextFlat));
          items = next;
          flat = nextFlat;
        }
      }),
      // a session known to age, fold and summarize, so the check below does not depend on what the random runs drew
      { numRuns: 60, examples: [[FOLDING_SESSION, 6000]] },
    );
    // the runs did age, fold and summarize
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(0);
  });
});
