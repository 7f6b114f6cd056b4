import type { ContextItem } from '@ctxgit/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latestUserKey } from '../src/eval/policies/latest-user-key.js';
import { slidingWindowPolicy } from '../src/eval/policies/sliding-window.js';
import { toolResultClearingPolicy } from '../src/eval/policies/tool-result-clearing.js';
import { toolUnits } from '../src/eval/policies/units.js';
import { priceConversation } from '../src/eval/price-conversation.js';
import { PRICINGS } from '../src/eval/pricing.js';
import { sampleEvenly } from '../src/eval/sample-evenly.js';
import { createTokenMeter } from '../src/eval/token-meter.js';
import { charTokenizer, text, tool } from './fixtures/synthetic.js';

const meter = createTokenMeter(charTokenizer);

/** A random conversation: a system item, then user / assistant turns, assistants with 0-3 tool items. */
const conversation = fc
  .array(fc.tuple(fc.constantFrom('user', 'assistant'), fc.nat(60), fc.array(fc.nat(200), { maxLength: 3 })), { maxLength: 14 })
  .map((turns) => {
    const items: ContextItem[] = [text('sys', 'system', 'S'.repeat(20))];
    turns.forEach(([role, size, tools], i) => {
      items.push(text(`m${i}`, role, 'x'.repeat(size)));
      if (role === 'assistant') tools.forEach((out, j) => items.push(tool(`m${i}t${j}`, `m${i}`, 'run', 'r'.repeat(out))));
    });
    return items;
  });

const run = async (policy = slidingWindowPolicy, budget: number, history: readonly ContextItem[]) =>
  (await policy.start(budget, meter).next({ history, newNodes: [], now: 0 })).items;

describe('sliding window, on random conversations', () => {
  it('keeps an in-order subset of whole units with the system items and the latest user turn, and fits unless only those are left', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, fc.integer({ min: 1, max: 1500 }), async (history, budget) => {
        const out = await run(slidingWindowPolicy, budget, history);
        const keys = out.map((i) => i.key);
        expect(history.map((i) => i.key).filter((k) => keys.includes(k))).toEqual(keys);
        expect(keys).toContain('sys');
        const user = latestUserKey(history);
        if (user !== undefined) expect(keys).toContain(user);
        for (const unit of toolUnits(history)) {
          const kept = unit.filter((i) => keys.includes(i.key)).length;
          expect(kept === 0 || kept === unit.length).toBe(true);
        }
        if (meter.requestTokens(out) > budget) {
          expect(out.every((i) => i.role === 'system' || toolUnits(history).find((u) => u.includes(i))?.some((x) => x.key === user))).toBe(true);
        }
        expect(await run(slidingWindowPolicy, budget, out)).toEqual(out);
      }),
      { numRuns: 200 },
    );
  });
});

describe('tool-result clearing, on random conversations', () => {
  it('changes only tool results older than the `keep` most recent tool uses', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, fc.integer({ min: 1, max: 1500 }), fc.nat(4), async (history, budget, keep) => {
        const out = await run(toolResultClearingPolicy({ keep }), budget, history);
        expect(out.map((i) => i.key)).toEqual(history.map((i) => i.key));
        const tools = history.filter((i) => i.role === 'tool');
        const recent = new Set(tools.slice(Math.max(0, tools.length - keep)));
        history.forEach((item, i) => {
          if (item.role !== 'tool' || recent.has(item)) expect(out[i]).toBe(item);
        });
        if (meter.requestTokens(history) <= budget) expect(out).toBe(history);
      }),
      { numRuns: 200 },
    );
  });
});

describe('price model, on random request sequences', () => {
  it('bills every token exactly once, reads nothing on a first request, and costs between the read price and the write premium', () => {
    const shape = fc.record({
      segments: fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), tokens: fc.integer({ min: 1, max: 900 }) }), { maxLength: 8 }),
      trailingTokens: fc.nat(5),
      systemEnd: fc.nat(3),
    });
    fc.assert(
      fc.property(fc.array(shape, { maxLength: 8 }), (shapes) => {
        const requests = shapes.map((s) => ({ segments: s.segments, trailingTokens: s.trailingTokens, breakpoints: [s.systemEnd, s.segments.length], at: null }));
        for (const pricing of PRICINGS) {
          const bills = priceConversation(requests, pricing);
          bills.forEach((b, i) => {
            expect(b.cacheRead + b.cacheWrite + b.uncached).toBe(b.tokens);
            expect(Math.min(b.cacheRead, b.cacheWrite, b.uncached)).toBeGreaterThanOrEqual(0);
            if (i === 0) expect(b.cacheRead).toBe(0);
            expect(b.units).toBeLessThanOrEqual(b.tokens * Math.max(1, pricing.writeMultiplier) + 1e-9);
            expect(b.units).toBeGreaterThanOrEqual(b.tokens * pricing.readMultiplier - 1e-9);
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('sampleEvenly', () => {
  it('keeps the first element, the order, and min(count, length) distinct elements', () => {
    expect(sampleEvenly([0, 1, 2, 3, 4, 5], 3)).toEqual([0, 2, 4]);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), fc.integer({ min: 1, max: 80 }), (xs, n) => {
        const indices = sampleEvenly(xs.map((_, i) => i), n);
        expect(indices.length).toBe(Math.min(n, xs.length));
        expect([...indices].sort((a, b) => a - b)).toEqual(indices);
        expect(new Set(indices).size).toBe(indices.length);
        if (xs.length > 0) expect(indices[0]).toBe(0);
      }),
    );
  });
});
