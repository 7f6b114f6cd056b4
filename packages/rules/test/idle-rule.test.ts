import { describe, expect, it } from 'vitest';
import { agingRule, CLEARED_PLACEHOLDER, idleRule, runPipeline } from '../src/index.js';
import { MIN, NodeBuilder, quarterTokenizer } from './helpers.js';

const build = (): NodeBuilder => {
  const b = new NodeBuilder();
  b.text('user', 'go', 0);
  for (let i = 0; i < 5; i++) {
    b.text('assistant', `round ${i}`, i * MIN);
    b.tool('bash', { command: `c${i}` }, `out ${i} ` + 'w'.repeat(300), i * MIN);
  }
  return b;
};
const rules = [agingRule({ graphProtection: false }), idleRule({ graphProtection: false })];
const ctx = (now: number) => ({ now, tokenizer: quarterTokenizer, historyBudget: 1_000_000, rules, band: { epochs: false } });

describe('idleRule', () => {
  it('clears aged items untouched for 60 minutes with a byte-stable placeholder', () => {
    const aged = runPipeline([], build().nodes, ctx(10 * MIN));
    expect(aged.items.filter((i) => i.state === 'aged').map((i) => i.key)).toEqual(['n3', 'n5']);
    const early = runPipeline(aged.items, [], ctx(60 * MIN + MIN - 1));
    expect(early.items.filter((i) => i.state === 'cleared').map((i) => i.key)).toEqual(['n3']);
    const late = runPipeline(early.items, [], ctx(200 * MIN));
    const cleared = late.items.filter((i) => i.state === 'cleared');
    expect(cleared.map((i) => `${i.key}:${i.reason}`)).toEqual(['n3:idle_60min', 'n5:idle_60min']);
    expect(cleared[1]!.blocks).toEqual([
      { type: 'tool_call', id: 'n5', name: 'bash', arguments: '{"command":"c1"}' },
      { type: 'tool_result', callId: 'n5', name: 'bash', output: CLEARED_PLACEHOLDER, isError: false },
    ]);
    // The placeholder does not depend on the time: clearing at another `now` gives the same bytes.
    const other = runPipeline(early.items, [], ctx(999 * MIN));
    expect(other.items).toEqual(late.items);
    expect(late.firstChangedIndex).toBe(4);
  });

  it('never clears full items, and the reason follows idleMs', () => {
    const r = runPipeline([], build().nodes, { ...ctx(500 * MIN), rules: [agingRule({ graphProtection: false }), idleRule({ idleMs: 30 * MIN, graphProtection: false })] });
    expect(r.items.filter((i) => i.state === 'cleared').map((i) => i.reason)).toEqual(['idle_30min', 'idle_30min']);
    expect(r.items.filter((i) => i.role === 'tool' && i.state === 'full').length).toBe(3);
  });
});
