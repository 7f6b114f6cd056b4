import { describe, expect, it } from 'vitest';
import type { ContextItem } from '@ctxgit/rules';
import { fullHistoryPolicy } from '../src/eval/policies/full-history.js';
import { slidingWindowPolicy } from '../src/eval/policies/sliding-window.js';
import { CLEARED_PLACEHOLDER, toolResultClearingPolicy } from '../src/eval/policies/tool-result-clearing.js';
import { toolUnits } from '../src/eval/policies/units.js';
import { MASKED_PLACEHOLDER, observationMaskingPolicy } from '../src/eval/policies/observation-masking.js';
import type { Policy } from '../src/eval/policy.js';
import { createTokenMeter } from '../src/eval/token-meter.js';
import { charTokenizer, text, tool } from './fixtures/synthetic.js';

/** 3 tokens per message and per request, no tool-call wrapper: the figures below are counted by hand that way. */
const meter = createTokenMeter(charTokenizer, { perMessage: 3, perToolCall: 0, perRequest: 3 });
// Tokens (1 per char + 3 per message): sys 13, u1 23, a1 8, t1 'get({})\n' + 50 = 61, a2 8, t2 41, u2 13; request +3 = 170.
const sys = text('sys', 'system', 'S'.repeat(10));
const u1 = text('u1', 'user', 'u'.repeat(20));
const a1 = text('a1', 'assistant', 'a'.repeat(5));
const t1 = tool('t1', 'a1', 'get', 'r'.repeat(50));
const a2 = text('a2', 'assistant', 'b'.repeat(5));
const t2 = tool('t2', 'a2', 'get', 'x'.repeat(30));
const u2 = text('u2', 'user', 'v'.repeat(10));
const history = [sys, u1, a1, t1, a2, t2, u2];

const run = async (policy: Policy, budget: number, items: readonly ContextItem[] = history) =>
  (await policy.start(budget, meter).next({ history: items, newNodes: [], now: 0 })).items;
const keys = (items: readonly ContextItem[]) => items.map((i) => i.key);

describe('the token meter', () => {
  it('counts text plus 3 per message and 3 per request', () => {
    expect(history.map((i) => meter.itemTokens(i))).toEqual([13, 23, 8, 61, 8, 41, 13]);
    expect(meter.requestTokens(history)).toBe(170);
  });
});

describe('toolUnits', () => {
  it('keeps an assistant item with the tool items it issued', () => {
    expect(toolUnits(history).map(keys)).toEqual([['sys'], ['u1'], ['a1', 't1'], ['a2', 't2'], ['u2']]);
  });
});

describe('full history', () => {
  it('returns the history unchanged', async () => {
    expect(await run(fullHistoryPolicy, 10)).toBe(history);
  });
});

describe('sliding window', () => {
  it('drops the oldest units until the request fits', async () => {
    const out = await run(slidingWindowPolicy, 100);
    expect(keys(out)).toEqual(['sys', 'a2', 't2', 'u2']);
    expect(meter.requestTokens(out)).toBe(78);
  });

  it('keeps the system items and the latest user turn even when the request stays over the budget', async () => {
    const out = await run(slidingWindowPolicy, 20);
    expect(keys(out)).toEqual(['sys', 'u2']);
    expect(meter.requestTokens(out)).toBe(29);
  });

  it('drops nothing when the request fits', async () => {
    expect(keys(await run(slidingWindowPolicy, 170))).toEqual(keys(history));
  });
});

describe('tool-result clearing (Anthropic clear_tool_uses_20250919 style)', () => {
  it('does nothing under the trigger', async () => {
    expect(await run(toolResultClearingPolicy({ keep: 1 }), 170)).toBe(history);
  });

  it('clears every result but the `keep` most recent tool uses, keeping the calls', async () => {
    const out = await run(toolResultClearingPolicy({ keep: 1 }), 150);
    expect(keys(out)).toEqual(keys(history));
    expect(out[3]).toEqual({
      ...t1,
      state: 'cleared',
      reason: 'context_editing',
      blocks: [
        { type: 'tool_call', id: 't1', name: 'get', arguments: '{}' },
        { type: 'tool_result', callId: 't1', name: 'get', output: CLEARED_PLACEHOLDER },
      ],
    });
    expect(out[5]).toBe(t2);
    expect(meter.requestTokens(out)).toBe(170 - 61 + 20);
  });

  it('keeps 3 tool uses by default, so two tool uses are never cleared', async () => {
    expect(await run(toolResultClearingPolicy(), 10)).toBe(history);
  });

  it('skips clearing that frees less than clear_at_least', async () => {
    expect(await run(toolResultClearingPolicy({ keep: 1, clearAtLeast: 50 }), 150)).toBe(history);
    expect(meter.requestTokens(await run(toolResultClearingPolicy({ keep: 1, clearAtLeast: 41 }), 150))).toBe(129);
  });

  it('never clears excluded tools, and clears the inputs when asked', async () => {
    expect(await run(toolResultClearingPolicy({ keep: 0, excludeTools: ['get'] }), 100)).toBe(history);
    const withArgs = { ...t1, blocks: [{ type: 'tool_call' as const, id: 't1', name: 'get', arguments: '{"path":"a.txt"}' }, t1.blocks[1]!] };
    const out = await run(toolResultClearingPolicy({ keep: 1, clearToolInputs: true, trigger: 0, placeholder: '-' }), 1000, [sys, u1, a1, withArgs, a2, t2, u2]);
    expect(out[3]?.blocks).toEqual([
      { type: 'tool_call', id: 't1', name: 'get', arguments: '{}' },
      { type: 'tool_result', callId: 't1', name: 'get', output: '-' },
    ]);
    expect(out[5]).toBe(t2);
  });

  it('refuses a negative keep', () => {
    expect(() => toolResultClearingPolicy({ keep: -1 })).toThrow(RangeError);
  });
});

describe('observation masking (The Complexity Trap)', () => {
  it('masks every tool result but the last N on every call, whatever the budget', async () => {
    const out = await run(observationMaskingPolicy(1), 1_000_000);
    expect(keys(out)).toEqual(keys(history));
    expect(out[3]?.blocks[1]).toEqual({ type: 'tool_result', callId: 't1', name: 'get', output: MASKED_PLACEHOLDER });
    expect(out[5]).toBe(t2);
    expect(await run(observationMaskingPolicy(2), 10)).toBe(history);
    expect(observationMaskingPolicy(5).id).toBe('masking-5');
  });
});

describe('tool-result clearing with clear_at_least as a share of the budget', () => {
  it('clears only when that frees the share', async () => {
    // Clearing t1 frees 61 - 20 = 41 tokens: enough for a quarter of 150 (38), not for a third (50).
    expect(meter.requestTokens(await run(toolResultClearingPolicy({ keep: 1, clearAtLeastShare: 0.25 }), 150))).toBe(129);
    expect(await run(toolResultClearingPolicy({ keep: 1, clearAtLeastShare: 1 / 3 }), 150)).toBe(history);
    expect(toolResultClearingPolicy({ clearAtLeastShare: 0.25 }).id).toBe('tool-clearing-at-least');
  });
});
