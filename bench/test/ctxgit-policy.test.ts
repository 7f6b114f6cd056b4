import { itemFromNode, runPipeline } from '@ctxgit/rules';
import type { ContextItem } from '@ctxgit/rules';
import { describe, expect, it } from 'vitest';
import { ctxgitPolicy } from '../src/eval/policies/ctxgit-policy.js';
import { prepareCalls } from '../src/eval/prepare-calls.js';
import { createTokenMeter, OVERHEAD } from '../src/eval/token-meter.js';
import { charTokenizer, node } from './fixtures/synthetic.js';

const nodes = [
  node('n0', 0, 'system', 'You are helpful.'),
  node('n1', 1, 'user', 'Find the config file.'),
  node('n2', 2, 'assistant', 'Searching.', { predecessor: 'n1' }),
  node('n3', 3, 'tool', 'found deploy/settings.yaml', { name: 'find', input: { pattern: '*.yaml' }, caller: 'n2' }),
  node('n4', 4, 'assistant', 'Opening deploy/settings.yaml now.', { predecessor: 'n2' }),
  node('n5', 5, 'user', 'thanks', { predecessor: 'n4' }),
  node('n6', 6, 'assistant', 'Done.', { predecessor: 'n5' }),
];
const calls = prepareCalls({ id: 'synthetic', corpus: 'synthetic', nodes, timestamps: false }, (n) => itemFromNode(n, charTokenizer));
const meter = createTokenMeter(charTokenizer);
const policy = ctxgitPolicy(charTokenizer, { id: 'ctxgit', label: 'ctxgit', description: 'defaults' });

async function replay(budget: number) {
  const run = policy.start(budget, meter);
  const outputs = [];
  for (const call of calls) outputs.push(await run.next({ history: call.historyItems, newNodes: call.newNodes, now: call.now }));
  return outputs;
}

describe('ctxgitPolicy', () => {
  it('chains pipeline runs over the new nodes in the request frame of the budget, counting each item as the meter does', async () => {
    const outputs = await replay(10_000);
    let items: readonly ContextItem[] = [];
    const expected = calls.map((call) => {
      items = runPipeline(items, call.newNodes, { now: call.now, tokenizer: charTokenizer, request: { window: 10_000, overhead: OVERHEAD } }).items;
      return items;
    });
    expect(outputs.map((o) => o.items)).toEqual(expected);
    expect(outputs.every((o) => o.refused === undefined)).toBe(true);
    for (const out of outputs) for (const item of out.items) expect(item.tokens).toBe(meter.itemTokens(item));
  });

  it('records a call the pipeline refuses (the system item alone exceeds the window) and carries the unprocessed items', async () => {
    const outputs = await replay(10);
    expect(outputs.map((o) => o.refused?.split(':')[0])).toEqual(['E_RULES_OVER_BUDGET', 'E_RULES_OVER_BUDGET', 'E_RULES_OVER_BUDGET']);
    expect(outputs.map((o) => o.items.map((i) => i.key))).toEqual(calls.map((c) => c.historyItems.map((i) => i.key)));
    expect(outputs.every((o) => o.items.every((i) => i.state === 'full'))).toBe(true);
  });
});
