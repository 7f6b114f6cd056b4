import { describe, expect, it } from 'vitest';
import {
  defaultRules,
  pipelineVersion,
  runPipeline,
  runPipelineAsync,
  RulesInputError,
  RulesInvariantError,
  type ContextItem,
  type Rule,
} from '../src/index.js';
import { NodeBuilder, quarterTokenizer } from './helpers.js';

const agent = (rounds: number, outSize = 600): NodeBuilder => {
  const b = new NodeBuilder();
  b.text('system', 'You are an agent.');
  b.text('user', 'Fix the failing test in tests/test_app.py');
  for (let i = 0; i < rounds; i++) {
    b.text('assistant', `Step ${i}: inspect module_${i}.py`);
    b.tool('bash', { command: `cat src/module_${i}.py` }, `def handler_${i}():\n` + 'x'.repeat(outSize));
  }
  return b;
};
const ctx = { now: 1000, tokenizer: quarterTokenizer, historyBudget: 1500 };

const badRule = (name: string, f: (items: readonly ContextItem[]) => readonly ContextItem[]): Rule => ({ name, version: 1, apply: f });

function invariantOf(rule: Rule, items: readonly ContextItem[]): RulesInvariantError {
  try {
    runPipeline(items, [], { ...ctx, historyBudget: 1e9, rules: [rule] });
  } catch (e) {
    if (e instanceof RulesInvariantError) return e;
    throw e;
  }
  throw new Error('rule was accepted');
}

describe('runPipeline', () => {
  const base = runPipeline([], agent(3).nodes, { ...ctx, historyBudget: 1e9 }).items;
  const withAged = base.map((i): ContextItem => (i.key === 'n4' ? { ...i, state: 'aged' } : i.key === 'n6' ? { ...i, locked: true } : i));

  it('rejects a rule that loosens a state, naming it', () => {
    const e = invariantOf(badRule('loosen', (items) => items.map((i) => (i.state === 'aged' ? { ...i, state: 'full' } : i))), withAged);
    expect(e.code).toBe('E_RULES_INVARIANT');
    expect(e.data).toMatchObject({ rule: 'loosen', invariant: 'loosened', key: 'n4' });
    expect(e.message).toContain('rule "loosen"');
  });

  it('rejects a rule that touches a locked item', () => {
    const e = invariantOf(badRule('toucher', (items) => items.map((i) => (i.locked ? { ...i, reason: 'poked' } : i))), withAged);
    expect(e.data).toMatchObject({ rule: 'toucher', invariant: 'locked_changed', key: 'n6' });
  });

  it('rejects dropped, reordered, invented items, fake summaries and a folded latest user turn', () => {
    expect(invariantOf(badRule('dropper', (items) => items.slice(1)), withAged).data).toMatchObject({ invariant: 'vanished', key: 'n1' });
    expect(invariantOf(badRule('swapper', (items) => [items[1]!, items[0]!, ...items.slice(2)]), withAged).data).toMatchObject({ invariant: 'reordered' });
    expect(invariantOf(badRule('inventor', (items) => [...items, { ...items[2]!, key: 'zz' }]), withAged).data).toMatchObject({ invariant: 'bad_new_item', key: 'zz' });
    const summary: ContextItem = { key: 'sm_x', sourceNodeId: 'sm_x', role: 'user', state: 'summary', locked: false, blocks: [{ type: 'text', text: 's' }], tokens: 1, reason: 'fold', touchedAt: 0, folded: ['n99'] };
    expect(invariantOf(badRule('dangler', (items) => [...items, summary]), withAged).data).toMatchObject({ invariant: 'summary_dangling', key: 'sm_x' });
    const foldUser = badRule('userfolder', (items) => {
      const s: ContextItem = { ...summary, folded: ['n2'] };
      return items.flatMap((i) => (i.key === 'n2' ? [s, { ...i, state: 'summarized' as const, mergedInto: 'sm_x' }] : [i]));
    });
    expect(invariantOf(foldUser, withAged).data).toMatchObject({ invariant: 'protected_folded', key: 'n2' });
    const orphan = badRule('orphan', (items) => items.map((i) => (i.key === 'n3' ? { ...i, state: 'summarized' as const, mergedInto: 'sm_nope' } : i)));
    expect(invariantOf(orphan, withAged).data).toMatchObject({ invariant: 'summarized_dangling', key: 'n3' });
  });

  it('checks a fold without reading the folded keys of the summaries it leaves alone', () => {
    // a live summary of the parent, made by a long import: its keys are read only to open it, never to check other folds
    let reads = 0;
    const keys = Array.from({ length: 5000 }, (_, i) => `old${i}`);
    const folded = Object.assign(keys, {
      [Symbol.iterator](this: string[]) {
        reads++;
        return Array.prototype[Symbol.iterator].call(this);
      },
    });
    const old: ContextItem = { key: 'sm_old', sourceNodeId: 'sm_old', role: 'user', state: 'summary', locked: false, blocks: [{ type: 'text', text: 'old' }], tokens: 1, reason: 'fold', touchedAt: 0, folded };
    const parent = [withAged[0]!, old, ...withAged.slice(1)];
    const made: ContextItem = { key: 'sm_new', sourceNodeId: 'sm_new', role: 'user', state: 'summary', locked: false, blocks: [{ type: 'text', text: 'new' }], tokens: 1, reason: 'fold', touchedAt: 0, folded: ['n3'] };
    const folder = badRule('folder', (items) => items.flatMap((i) => (i.key === 'n3' ? [made, { ...i, state: 'summarized' as const, mergedInto: 'sm_new' }] : [i])));
    const r = runPipeline(parent, [], { ...ctx, historyBudget: 1e9, rules: [folder] });
    expect(r.items.map((i) => i.key)).toEqual(parent.map((i) => (i.key === 'n3' ? 'sm_new' : i.key)));
    expect(r.folds.get('sm_new')?.map((i) => i.key)).toEqual(['n3']);
    expect(reads).toBe(0);
    // the same fold is still refused when it does not list what it summarized
    const liar = badRule('liar', (items) => items.flatMap((i) => (i.key === 'n3' ? [{ ...made, folded: ['n4'] }, { ...i, state: 'summarized' as const, mergedInto: 'sm_new' }] : [i])));
    expect(invariantOf(liar, parent).data).toMatchObject({ invariant: 'summary_dangling', key: 'sm_new' });
  });

  it('reports firstChangedIndex, totals and counts; a second run with no nodes changes nothing', () => {
    const b = agent(8);
    const first = runPipeline([], b.nodes.slice(0, 10), ctx);
    expect(first.firstChangedIndex).toBe(0);
    const second = runPipeline(first.items, b.nodes.slice(10, 12), ctx);
    expect(second.report.added).toBe(2);
    expect(second.firstChangedIndex).toBeLessThanOrEqual(first.items.length);
    expect(second.items.slice(0, second.firstChangedIndex)).toEqual(first.items.slice(0, second.firstChangedIndex));
    expect(second.totalTokens).toBe(second.items.filter((i) => i.state !== 'summarized').reduce((s, i) => s + i.tokens, 0));
    expect(second.historyTokens).toBe(second.totalTokens - second.items[0]!.tokens);
    const again = runPipeline(second.items, [], ctx);
    expect(again.items).toEqual(second.items);
    expect(again.firstChangedIndex).toBe(second.items.length);
    const all = runPipeline([], b.nodes, ctx);
    expect(all.historyTokens).toBeLessThanOrEqual(Math.floor(0.95 * ctx.historyBudget));
    expect(all.report.rules.map((r) => r.rule)).toEqual(['aging', 'idle', 'fold', 'cap']);
  });

  it('keeps a parent prefix byte-identical while the band is not reached (cache epochs)', () => {
    const b = agent(12, 40);
    let items: readonly ContextItem[] = [];
    const prefixes: number[] = [];
    for (let i = 0; i < b.nodes.length; i += 2) {
      const r = runPipeline(items, b.nodes.slice(i, i + 2), { ...ctx, historyBudget: 600 });
      prefixes.push(r.firstChangedIndex === items.length ? -1 : r.firstChangedIndex);
      items = r.items;
    }
    // Most turns only append; an epoch rewrites the prefix rarely.
    expect(prefixes.filter((p) => p !== -1).length).toBeLessThanOrEqual(3);
    const eager = runPipeline([], b.nodes, { ...ctx, historyBudget: 600, band: { epochs: false } });
    expect(eager.items.filter((i) => i.state === 'aged').length).toBeGreaterThan(0);
  });

  it('accepts ready items (attach expansions) and refuses duplicate keys', () => {
    const b = agent(1);
    const attached: ContextItem = { ...base[1]!, key: 'x1', sourceNodeId: 'x1', attachedFrom: 'att', reason: 'attached_from:att', tokens: 0 };
    const r = runPipeline([], [...b.nodes, attached], { ...ctx, historyBudget: 1e9 });
    expect(r.items.at(-1)).toEqual({ ...attached, tokens: base[1]!.tokens });
    expect(() => runPipeline(r.items, [b.nodes[0]!], ctx)).toThrow(RulesInputError);
    expect(() => runPipeline([], [], { ...ctx, historyBudget: 0 })).toThrow(/historyBudget/);
    expect(() => runPipeline([], [], { ...ctx, band: { foldAt: 0.9, foldTo: 0.95 } })).toThrow(/band/);
  });

  it('is deterministic', () => {
    const b = agent(10);
    expect(runPipeline([], b.nodes, ctx)).toEqual(runPipeline([], b.nodes, ctx));
  });
});

describe('pipelineVersion', () => {
  it('joins name@version', () => {
    expect(pipelineVersion(defaultRules())).toBe('aging@3+idle@1+fold@14+cap@3');
    expect(() => pipelineVersion([...defaultRules(), defaultRules()[0]!])).toThrow(/share the name/);
    expect(() => pipelineVersion([{ name: 'Bad Name', version: 1, apply: (i) => i }])).toThrow(RulesInputError);
  });
});

describe('runPipelineAsync', () => {
  it('records the summarizer text in new summaries', async () => {
    const b = agent(8);
    const seen: string[][] = [];
    const r = await runPipelineAsync([], b.nodes, {
      ...ctx,
      summarizer: {
        name: 'echo',
        summarize: async ({ items, key }) => {
          seen.push(items.map((i) => i.key));
          return `summary ${key} of ${items.length} items`;
        },
      },
    });
    const s = r.items.find((i) => i.state === 'summary')!;
    expect(s.reason).toBe('summarizer:echo');
    expect(s.blocks).toEqual([{ type: 'text', text: `summary ${s.key} of ${s.folded!.length} items` }]);
    expect(seen).toEqual([s.folded]);
    expect(r.report.summarizerFallbacks).toBe(0);
  });

  it('keeps the brief when the summarizer text would exceed the emergency mark', async () => {
    const b = agent(8);
    const plain = runPipeline([], b.nodes, ctx);
    const r = await runPipelineAsync([], b.nodes, { ...ctx, summarizer: { name: 'long', summarize: async () => 'z'.repeat(100_000) } });
    expect(r.items).toEqual(plain.items);
    expect(r.report.summarizerFallbacks).toBe(1);
  });

  it('keeps the brief when the summarizer resolves to undefined', async () => {
    const b = agent(8);
    const plain = runPipeline([], b.nodes, ctx);
    const r = await runPipelineAsync([], b.nodes, { ...ctx, summarizer: { name: 'none', summarize: async () => undefined } });
    expect(r.items).toEqual(plain.items);
    expect(r.report.summarizerFallbacks).toBe(plain.report.summaries);
    expect(plain.report.summaries).toBeGreaterThan(0);
  });
});

describe('runPipeline with a request frame', () => {
  const overhead = { format: 'openai-chat', perMessage: 4, perToolCall: 3, perRequest: 3 } as const;

  it('counts every item with its wrappers (a summary with its marker) and gives the history what the window leaves', () => {
    const b = agent(30);
    const frame = { window: 3000, outputReserve: 500, fixedTokens: 200, overhead };
    const r = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, request: frame });
    for (const it of r.items) {
      const text = quarterTokenizer.count(it.blocks.map((x) => (x.type === 'text' ? x.text : x.type === 'tool_call' ? `${x.name}(${x.arguments})` : x.output)).join('\n'));
      // a summary also counts the `[Summary] ` marker render puts before it
      expect(it.tokens).toBe(text + 4 + (it.role === 'tool' ? 3 : 0) + (it.state === 'summary' ? quarterTokenizer.count('[Summary] ') : 0));
    }
    const system = r.items.filter((i) => i.role === 'system').reduce((n, i) => n + i.tokens, 0);
    const historyBudget = 3000 - 500 - 200 - 3 - system;
    expect(r.historyTokens).toBeLessThanOrEqual(Math.floor(0.8 * historyBudget));
    // The whole request (items, fixed tokens, reply priming) fits the window with the reserve kept.
    expect(r.totalTokens + 200 + 3).toBeLessThanOrEqual(3000 - 500);
    // A history budget given as well: the smaller one holds.
    const tighter = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, request: frame, historyBudget: 900 });
    expect(tighter.historyTokens).toBeLessThanOrEqual(Math.floor(0.8 * 900));
  });

  it('refuses, naming the numbers, when even the latest round cannot fit', () => {
    const b = new NodeBuilder();
    b.text('system', 's'.repeat(400));
    b.text('user', 'u'.repeat(2000));
    let err: unknown;
    try {
      runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, request: { window: 600, outputReserve: 100, overhead } });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      code: 'E_RULES_OVER_BUDGET',
      data: { window: 600, outputReserve: 100, fixedTokens: 0, systemTokens: 104 + 3, latestRoundTokens: 504, requestTokens: 104 + 504 + 3 },
    });
    expect((err as Error).message).toContain('window 600');
    expect(() => runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, request: { window: 100, overhead } })).toThrow(
      expect.objectContaining({ code: 'E_RULES_OVER_BUDGET', data: expect.objectContaining({ systemTokens: 107, requestTokens: 107 }) }),
    );
    expect(() => runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, request: { window: 0 } })).toThrow(RulesInputError);
    expect(() => runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer })).toThrow(RulesInputError);
  });
});

describe('a turn that breaks the cached prefix must buy headroom', () => {
  // Everything locked but one early tool result: what the rules can free leaves the history above the upper mark.
  const all = runPipeline([], agent(20).nodes, { ...ctx, historyBudget: 1e9 }).items;
  const free = all.findIndex((it) => it.role === 'tool');
  const parent = all.map((it, i): ContextItem => (i === free ? it : { ...it, locked: true }));
  const history = parent.filter((it) => it.role !== 'system').reduce((s, it) => s + it.tokens, 0);
  // the history at 90 % of its budget: above the upper mark (80 %), under the emergency mark (95 %)
  const historyBudget = Math.ceil(history / 0.9);

  it('keeps the parent list when the rules would leave the history above the upper mark, under the emergency mark', () => {
    const r = runPipeline(parent, [], { ...ctx, historyBudget });
    expect(r.items).toEqual(parent);
    expect(r.folds.size).toBe(0);
    expect(r.report).toMatchObject({ epoch: false, aged: 0, folded: 0, rewrittenTokens: 0 });
    expect(r.firstChangedIndex).toBe(parent.length);
  });

  it('applies them without epochs, and when the cache is cold', () => {
    const noEpochs = runPipeline(parent, [], { ...ctx, historyBudget, band: { epochs: false } });
    expect(noEpochs.items[free]).not.toEqual(parent[free]);
    const cold = runPipeline(parent, [], { ...ctx, now: ctx.now + 3_600_000, historyBudget });
    expect(cold.items[free]).not.toEqual(parent[free]);
    expect(cold.report.epoch).toBe(true);
  });
});
