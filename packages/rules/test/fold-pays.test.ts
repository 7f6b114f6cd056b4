import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldPays, mightPay } from '../src/fold-pays.js';
import type { ContextItem } from '../src/index.js';

const item = (i: number, role: ContextItem['role'], tokens: number, summarized: boolean): ContextItem => ({
  key: `k${i}`,
  sourceNodeId: `k${i}`,
  role,
  state: summarized ? 'summarized' : 'full',
  locked: false,
  blocks: [{ type: 'text', text: '' }],
  tokens,
  reason: 'new',
  touchedAt: 0,
});

const list = fc.array(fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const), tokens: fc.integer({ min: 0, max: 3000 }), summarized: fc.boolean() }), { minLength: 1, maxLength: 160, size: 'max' });

describe('foldPays', () => {
  it('pays once the reads of what the fold frees reach four times its rewrite, never at a read price of 0', () => {
    // 40 old results of 500 tokens, then a tail of three calls: the reads are far past the rewrite.
    const items = Array.from({ length: 46 }, (_, i) => item(i, i % 2 === 0 ? 'assistant' : 'tool', i < 40 ? 500 : 100, false));
    const spans = [Array.from({ length: 40 }, (_, i) => i)];
    expect(foldPays(items, spans, 3, 400, { read: 0.1, write: 1.25 })).toBe(true);
    expect(foldPays(items, spans, 3, 400, { read: 0, write: 1.25 })).toBe(false);
    // The newest two results only: read for a call or two, not yet paid.
    expect(foldPays(items, [[38, 39]], 3, 400, { read: 0.1, write: 1.25 })).toBe(false);
    expect(foldPays(items, [], 3, 400, { read: 0.1, write: 1.25 })).toBe(false);
  });

  it('mightPay, the bound the rule asks first, is false only where no runs inside can pay', () => {
    fc.assert(
      fc.property(list, fc.array(fc.boolean(), { minLength: 160, maxLength: 160 }), fc.integer({ min: 0, max: 600 }), fc.constantFrom(0.1, 0.5, 1, 2), fc.integer({ min: 0, max: 3 }), (specs, pick, brief, read, tail) => {
        const items = specs.map((s, i) => item(i, s.role, s.tokens, s.summarized));
        const from = Math.floor(items.length / 4);
        const to = items.length;
        // Runs: the picked visible positions in [from, to), split where a position is not picked.
        const spans: number[][] = [];
        let cur: number[] = [];
        for (let i = from; i < to; i++) {
          if (items[i]!.state === 'summarized') continue;
          if (pick[i] === true) cur.push(i);
          else if (cur.length > 0) (spans.push(cur), (cur = []));
        }
        if (cur.length > 0) spans.push(cur);
        const prices = { read, write: 1.25 };
        if (!mightPay(items, from, to, tail, prices)) expect(foldPays(items, spans, tail, brief, prices)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
