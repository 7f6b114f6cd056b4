import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextItem } from '@ctxgit/rules';
import { costFloor } from '../src/eval/cost-floor.js';
import { fullHistoryPolicy } from '../src/eval/policies/full-history.js';
import { observationMaskingPolicy } from '../src/eval/policies/observation-masking.js';
import type { PreparedCall } from '../src/eval/prepare-calls.js';
import { priceConversation } from '../src/eval/price-conversation.js';
import { ANTHROPIC_SONNET_4_5, OPENAI_GPT_4_1, PRICINGS } from '../src/eval/pricing.js';
import { replayPolicy } from '../src/eval/replay-policy.js';
import { createTokenMeter } from '../src/eval/token-meter.js';
import { charTokenizer, node, text, tool } from './fixtures/synthetic.js';

/** 3 tokens per message and per request: sys 1,203, u1 103, a1 8, t1 61 (see policies.test.ts). */
const meter = createTokenMeter(charTokenizer, { perMessage: 3, perToolCall: 0, perRequest: 3 });

/** The calls of a history of items, one before each assistant item; `newNodes` carry the ids appended since the previous call. */
function callsOf(items: readonly ContextItem[]): PreparedCall[] {
  const calls: PreparedCall[] = [];
  let last = 0;
  items.forEach((it, j) => {
    if (it.role !== 'assistant' || j === 0) return;
    const fresh = items.slice(last, j).map((x, k) => node(x.key, last + k, x.role, ''));
    calls.push({ history: [], historyItems: items.slice(0, j), newNodes: fresh, step: node(it.key, j, 'assistant', ''), reused: [], reusedShaped: [], now: j, at: null });
    last = j;
  });
  return calls;
}

describe('costFloor', () => {
  const sys = text('sys', 'system', 'S'.repeat(1200));
  const u1 = text('u1', 'user', 'u'.repeat(100));
  const a1 = text('a1', 'assistant', 'a'.repeat(5));
  const t1 = tool('t1', 'a1', 'get', 'r'.repeat(50));
  const a2 = text('a2', 'assistant', 'b'.repeat(5));
  const calls = callsOf([sys, u1, a1, t1, a2]);

  it('bills the system items and the latest user turn at the read price, the newest round as a write, the overhead uncached', () => {
    const floor = costFloor(calls, meter, [ANTHROPIC_SONNET_4_5, OPENAI_GPT_4_1]);
    // call 1: everything is new, written (1,306 tokens >= 1,024): 1.25 * (1203 + 103) + 3
    // call 2: 0.1 * (1203 + 103) read, 1.25 * (8 + 61) written, 3 uncached
    expect(floor['anthropic-sonnet-4.5']).toBeCloseTo(1.25 * 1306 + 3 + 0.1 * 1306 + 1.25 * 69 + 3, 9);
    // OpenAI: no write premium, reads at 0.25
    expect(floor['openai-gpt-4.1']).toBeCloseTo(1306 + 3 + 0.25 * 1306 + 69 + 3, 9);
  });

  it('bills a round under the cacheable minimum at the base price', () => {
    const small = callsOf([text('s', 'system', 'S'.repeat(100)), text('u', 'user', 'u'.repeat(100)), text('a', 'assistant', 'a')]);
    expect(costFloor(small, meter, [ANTHROPIC_SONNET_4_5])['anthropic-sonnet-4.5']).toBe(103 + 103 + 3);
  });

  it('is never above the bill of a policy that sends the system items, the latest user turn and the newest round whole', async () => {
    const render = (items: readonly ContextItem[]) => ({ body: JSON.stringify(items), tokens: meter.requestTokens(items) });
    const round = fc.record({ user: fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }), results: fc.array(fc.integer({ min: 1, max: 900 }), { maxLength: 5 }) });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2500 }), fc.array(round, { minLength: 1, maxLength: 8 }), async (system, rounds) => {
        const items: ContextItem[] = [text('sys', 'system', 'S'.repeat(system)), text('u0', 'user', 'first')];
        rounds.forEach((r, i) => {
          if (r.user !== undefined) items.push(text(`u${i + 1}`, 'user', 'u'.repeat(r.user)));
          items.push(text(`a${i}`, 'assistant', 'thinking'));
          r.results.forEach((n, k) => items.push(tool(`t${i}.${k}`, `a${i}`, 'get', 'r'.repeat(n))));
        });
        items.push(text('last', 'assistant', 'done'));
        const calls = callsOf(items);
        const floor = costFloor(calls, meter, PRICINGS);
        for (const policy of [fullHistoryPolicy, observationMaskingPolicy(5)]) {
          const shapes = (await replayPolicy(calls, policy, 1_000_000, meter, render)).map((r) => r.shape);
          for (const p of PRICINGS) {
            const billed = priceConversation(shapes, p).reduce((n, b) => n + b.units, 0);
            expect(floor[p.id]).toBeLessThanOrEqual(billed + 1e-9);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
