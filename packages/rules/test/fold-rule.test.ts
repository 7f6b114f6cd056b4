import { describe, expect, it } from 'vitest';
import { defaultBrief, defaultRules, foldedOriginals, foldRule, runPipeline, RulesFoldedNeededError, RulesInputError, RulesOverBudgetError, type ContextItem } from '../src/index.js';
import { FoldStore, NodeBuilder, quarterTokenizer } from './helpers.js';

const chatty = (turns: number, size = 400): NodeBuilder => {
  const b = new NodeBuilder();
  b.text('system', 'You are a careful assistant.');
  for (let i = 0; i < turns; i++) {
    b.text('user', `question ${i} ` + 'u'.repeat(size));
    b.text('assistant', `answer ${i} ` + 'a'.repeat(size));
  }
  return b;
};
const visible = (items: readonly ContextItem[]): string[] => items.filter((i) => i.state !== 'summarized').map((i) => i.key);

describe('foldRule', () => {
  it('folds the oldest run into one summary down to the lower mark', () => {
    const b = chatty(10); // 20 messages of ~103 tokens
    const r = runPipeline([], b.nodes, { now: 42, tokenizer: quarterTokenizer, historyBudget: 2000, rules: [foldRule()] });
    expect(r.historyTokens).toBeLessThanOrEqual(1000);
    expect(r.items.some((i) => i.state === 'summarized')).toBe(false);
    const summaries = r.items.filter((i) => i.state === 'summary');
    expect(summaries).toHaveLength(1);
    const s = summaries[0]!;
    expect(s.key).toMatch(/^sm_[0-9a-f]{16}$/);
    expect(s.role).toBe('user');
    expect(s.touchedAt).toBe(42);
    expect(s.reason).toBe('fold');
    // The summary sits where its first folded item was, and lists exactly the items folded under it.
    const folded = r.folds.get(s.key)!;
    expect([...r.folds.keys()]).toEqual([s.key]);
    expect(s.folded).toEqual(folded.map((i) => i.key));
    expect(folded.every((i) => i.state === 'summarized')).toBe(true);
    expect(folded.every((i) => i.mergedInto === s.key && i.reason === 'folded')).toBe(true);
    expect(r.items.indexOf(s)).toBe(1);
    expect(s.folded![0]).toBe('n2');
    // System and the latest user turn stay.
    expect(visible(r.items)).toContain('n1');
    expect(visible(r.items)).toContain('n20');
    const text = (s.blocks[0] as { text: string }).text;
    expect(text.startsWith(`[ctxgit brief] ${s.folded!.length} earlier messages\n`)).toBe(true);
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(1400);
    expect(r.firstChangedIndex).toBe(0);
    expect(r.report.summaries).toBe(1);
  });

  it('folds after the newest summary, leaving it and the cached prefix before it as they were', () => {
    const b = chatty(10);
    const ctx = { now: 1, tokenizer: quarterTokenizer, historyBudget: 1600, rules: [foldRule()] };
    const first = runPipeline([], b.nodes.slice(0, 15), ctx);
    const s1 = first.items.find((i) => i.state === 'summary')!;
    const at = first.items.indexOf(s1);
    const second = runPipeline(first.items, b.nodes.slice(15), ctx);
    const summaries = second.items.filter((i) => i.state === 'summary');
    expect(summaries).toHaveLength(2);
    // Everything up to s1 is the very objects of the first run; the new summary comes after s1.
    for (let i = 0; i <= at; i++) expect(second.items[i]).toBe(first.items[i]);
    expect(second.items.indexOf(summaries[1]!)).toBeGreaterThan(at);
    expect(second.firstChangedIndex).toBeGreaterThan(at);
    // Down to the lower mark (800) as far as the items after s1 allow (the tail stays): under the upper mark.
    expect(second.historyTokens).toBeLessThanOrEqual(1280);
    // The commit reports what it rewrote: the parent's visible tokens from the first changed position on.
    const rewritten = first.items.slice(second.firstChangedIndex).reduce((n, i) => n + i.tokens, 0);
    expect(second.report.rewrittenTokens).toBe(rewritten);
    expect(second.report.keptPrefixTokens).toBe(first.totalTokens - rewritten);
  });

  it('above the emergency mark, nests an earlier summary in the next one, leaving its originals as they were', () => {
    const b = chatty(10);
    const ctx = { now: 1, tokenizer: quarterTokenizer, historyBudget: 1600, rules: [foldRule()] };
    const store = new FoldStore();
    const first = store.add(runPipeline([], b.nodes.slice(0, 15), ctx));
    const s1 = first.items.find((i) => i.state === 'summary')!;
    // The live list alone does not hold s1's originals: the fold that absorbs it asks for them.
    expect(() => runPipeline(first.items, b.nodes.slice(15), { ...ctx, historyBudget: 700 })).toThrow(RulesFoldedNeededError);
    const second = store.add(runPipeline(first.items, b.nodes.slice(15), { ...ctx, historyBudget: 700, foldedOf: store.get }));
    const summaries = second.items.filter((i) => i.state === 'summary');
    expect(summaries).toHaveLength(1);
    const s2 = summaries[0]!;
    // s2 folds s1 (through the summaries of this run) and the items after it; s1 keeps its list, and its originals
    // stay under it, untouched.
    expect(second.items.indexOf(s2)).toBe(first.items.indexOf(s1));
    const flat = store.flat(second.items);
    const nested = [...second.folds.values()].flat();
    expect(nested.find((i) => i.key === s1.key)).toMatchObject({ ...s1, state: 'summarized', reason: 'folded' });
    expect(second.folds.has(s1.key)).toBe(false);
    for (const k of s1.folded!) expect(flat.find((i) => i.key === k)).toBe(first.folds.get(s1.key)!.find((i) => i.key === k));
    // The originals behind s2, through s1, in list order.
    const originals = foldedOriginals(second.items, s2.key, store.get);
    expect(originals.map((i) => i.key)).toEqual(flat.filter((i) => i.state === 'summarized' && i.folded === undefined).map((i) => i.key));
    expect(originals.slice(0, s1.folded!.length).map((i) => i.key)).toEqual(s1.folded);
    // The brief is written from all of them (far under the limit of items a brief reads).
    expect((s2.blocks[0] as { text: string }).text.startsWith(`[ctxgit brief] ${originals.length} earlier messages\n`)).toBe(true);
    expect(foldedOriginals(flat, s1.key).map((i) => i.key)).toEqual(s1.folded);
  });

  it('never folds pinned, anchor or locked items, and respects attach boundaries', () => {
    const b = chatty(6);
    const base = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 1e9, rules: [] }).items;
    const items = base.map((i): ContextItem => {
      if (i.key === 'n4') return { ...i, pinned: true };
      if (i.key === 'n5') return { ...i, isAnchor: true };
      if (i.key === 'n6') return { ...i, locked: true };
      if (i.key === 'n8' || i.key === 'n9') return { ...i, attachedFrom: 'att1' };
      return i;
    });
    const r = runPipeline(items, [], { now: 0, tokenizer: quarterTokenizer, historyBudget: 900, rules: [foldRule()] });
    for (const k of ['n1', 'n4', 'n5', 'n6', 'n12']) expect(visible(r.items)).toContain(k);
    const summaries = r.items.filter((i) => i.state === 'summary');
    for (const s of summaries) {
      const groups = new Set(foldedOriginals(r.items, s.key, (k) => r.folds.get(k)).map((i) => i.attachedFrom ?? ''));
      expect(groups.size).toBe(1);
      if (groups.has('att1')) expect(s.attachedFrom).toBe('att1');
    }
    expect(r.items.find((i) => i.key === 'n6')).toEqual(items.find((i) => i.key === 'n6'));
  });

  it('throws a typed error when the emergency mark cannot be reached, after bounded attempts', () => {
    const b = new NodeBuilder();
    b.text('system', 's'.repeat(100));
    b.text('user', 'u'.repeat(4000));
    let err: unknown;
    try {
      runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 500, rules: defaultRules() });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RulesOverBudgetError);
    expect((err as RulesOverBudgetError).code).toBe('E_RULES_OVER_BUDGET');
    expect((err as RulesOverBudgetError).data).toEqual({ historyTokens: 1000, emergencyTokens: 475, attempts: 0 });
  });

  it('goes past maxFoldAttempts while the history is above the emergency mark, and stops at the cap below it', () => {
    const b = chatty(12, 2000);
    // Every third item pinned: the history splits into short runs, one fold each.
    const items = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 1e9, rules: [] }).items.map((it, i) => (i % 3 === 0 && i > 0 ? { ...it, pinned: true } : it));
    const run = (maxFoldAttempts: number) => runPipeline(items, [], { now: 0, tokenizer: quarterTokenizer, historyBudget: 6000, rules: [foldRule({ maxFoldAttempts })] });
    const summaries = (items: readonly ContextItem[]): number => items.filter((i) => i.state === 'summary').length;
    // Past the cap the history is still above the emergency mark (5,700): the cap is lifted, and every run that frees tokens folds.
    const lifted = run(1);
    expect(lifted.historyTokens).toBe(5237);
    expect(summaries(lifted.items)).toBe(8);
    expect(run(7).items).toEqual(lifted.items);
    // The eighth fold gets below the emergency mark: with a cap of 8 the rule stops there, above the lower mark (3,000).
    const capped = run(8);
    expect(capped.historyTokens).toBe(5688);
    expect(summaries(capped.items)).toBe(7);
  });

  it('keeps the live summaries within summaryShare: the oldest merge into one summary of summaries, nesting them', () => {
    const b = chatty(80, 300);
    const session = (summaryShare: number) => {
      const store = new FoldStore();
      const ctx = { now: 1, tokenizer: quarterTokenizer, historyBudget: 3000, rules: [foldRule({ summaryShare })], foldedOf: store.get };
      let items: readonly ContextItem[] = [];
      let most = 0;
      let merges = 0;
      for (let i = 0; i < b.nodes.length; i += 2) {
        const r = store.add(runPipeline(items, b.nodes.slice(i, i + 2), ctx));
        if (r.items.some((it) => it.reason === 'fold_summaries' && !items.includes(it))) merges++;
        items = r.items;
        most = Math.max(most, items.filter((it) => it.state === 'summary').reduce((n, it) => n + it.tokens, 0));
      }
      return { items, store, most, merges };
    };
    const bounded = session(0.2);
    const unbounded = session(1);
    // Over the share at a fold, the summaries merge down to half of it: they never hold more than the share plus what one fold adds.
    expect(bounded.merges).toBeGreaterThan(0);
    expect(bounded.most).toBeLessThan(unbounded.most);
    expect(bounded.most).toBeLessThanOrEqual(600 + 350);
    const summaries = bounded.items.filter((it) => it.state === 'summary');
    expect(summaries.length).toBeLessThan(unbounded.items.filter((it) => it.state === 'summary').length);
    // The oldest summary is the merge: its originals run from the first folded message, every one in order.
    const merged = summaries[0]!;
    expect(merged.reason).toBe('fold_summaries');
    const originals = foldedOriginals(bounded.items, merged.key, bounded.store.get).map((it) => it.key);
    expect(originals[0]).toBe('n2');
    expect(originals).toEqual([...originals].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))));
    // Nothing is lost: the live list and what lies under its summaries hold every message once.
    const flat = bounded.store.flat(bounded.items).filter((it) => it.folded === undefined).map((it) => it.key);
    expect(flat).toEqual(b.nodes.map((_, i) => `n${i + 1}`));
  });

  it('does nothing below the upper mark', () => {
    const b = chatty(3);
    const r = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 10_000, rules: [foldRule()] });
    expect(r.items.every((i) => i.state === 'full')).toBe(true);
  });
});

describe('foldRule under pressure', () => {
  /** Each step reuses an identifier of the previous result, so every result is on the critical chain. */
  const chained = (rounds: number): NodeBuilder => {
    const b = new NodeBuilder();
    b.text('user', 'trace the value');
    for (let i = 0; i < rounds; i++) {
      b.text('assistant', i === 0 ? 'start' : `follow marker_${i - 1}_value`);
      b.tool('lookup', { q: `q${i}` }, `marker_${i}_value ` + 'd'.repeat(400));
    }
    return b;
  };

  it('keeps the whole chain while it fits, then only its newest part (fold_chain_share)', () => {
    const roomy = runPipeline([], chained(6).nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 2000 });
    expect(roomy.items.filter((i) => i.role === 'tool').every((i) => i.state === 'full')).toBe(true);
    const tight = runPipeline([], chained(12).nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 1000 });
    expect(tight.historyTokens).toBeLessThanOrEqual(950);
    const s = tight.items.filter((i) => i.state === 'summary');
    expect(s.map((i) => i.reason)).toContain('fold_chain_share');
    // The latest round (last step and its result) is never folded.
    expect(visible(tight.items).slice(-2)).toEqual(['n24', 'n25']);
  });

  it('still above the lower mark, lets the whole chain go, folding again what the same run folded after it (fold_chain)', () => {
    // The big result is on the chain (the next step passes its value on); the two after it are not, so the first
    // phase folds them into a summary after it, where a later phase starting after the newest summary cannot reach it.
    const b = new NodeBuilder();
    b.text('user', 'trace the value');
    b.text('assistant', 'start');
    b.tool('lookup', { q: 'q0' }, 'marker_0_value ' + 'd'.repeat(2000));
    b.text('assistant', 'follow marker_0_value');
    b.tool('lookup', { q: 'q1' }, 'nothing here ' + 'e'.repeat(400));
    b.text('assistant', 'look elsewhere');
    b.tool('lookup', { q: 'q2' }, 'nothing there ' + 'f'.repeat(400));
    b.text('assistant', 'last look');
    b.tool('lookup', { q: 'q3' }, 'done');
    const r = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 800 });
    expect(r.historyTokens).toBeLessThanOrEqual(400); // the lower mark, in one run
    const [s, ...more] = r.items.filter((i) => i.state === 'summary');
    expect(more).toEqual([]);
    expect(s?.reason).toBe('fold_chain');
    expect(foldedOriginals(r.items, s?.key ?? '', (k) => r.folds.get(k)).map((i) => i.key)).toEqual(['n2', 'n3', 'n4', 'n5', 'n6', 'n7']);
    expect(visible(r.items)).toEqual(['n1', s?.key, 'n8', 'n9']);
  });

  it('opens an epoch on a cold cache: items age although the band is not reached', () => {
    const b = new NodeBuilder();
    b.text('user', 'go', 0);
    for (let i = 0; i < 5; i++) {
      b.text('assistant', `round ${i}`, 0);
      b.tool('bash', { command: `c${i}` }, `out ${i} ` + 'w'.repeat(300), 0);
    }
    const ctx = { tokenizer: quarterTokenizer, historyBudget: 100_000 };
    const warm = runPipeline([], b.nodes, { ...ctx, now: 0 });
    expect(warm.report.epoch).toBe(false);
    const stillWarm = runPipeline(warm.items, [], { ...ctx, now: 59 * 60_000 });
    expect(stillWarm.items).toEqual(warm.items);
    const cold = runPipeline(warm.items, [], { ...ctx, now: 60 * 60_000 });
    expect(cold.report.epoch).toBe(true);
    // Aged outside the tail, then cleared at once: they are also untouched for 60 minutes.
    expect(cold.items.filter((i) => i.role === 'tool').map((i) => i.state)).toEqual(['cleared', 'cleared', 'full', 'full', 'full']);
  });

  it('below the marks, folds the finished runs after the newest summary once their cache reads have cost what the rewrite costs', () => {
    const b = chatty(80);
    // Briefs of at most 1,400 bytes (briefShare 0): this is about when a fold pays, not about the brief.
    const ctx = { tokenizer: quarterTokenizer, historyBudget: 100_000, rules: [foldRule({ briefShare: 0 })] };
    const run = (opts: object): { at: number[]; peak: number; last: number } => {
      let items: readonly ContextItem[] = [];
      const at: number[] = [];
      let peak = 0;
      let last = 0;
      for (let t = 0; t < 80; t++) {
        const r = runPipeline(items, b.nodes.slice(t === 0 ? 0 : 1 + 2 * t, 3 + 2 * t), { ...ctx, ...opts, now: t });
        if (r.report.summaries > 0) {
          at.push(t);
          // Far under the upper mark (80,000): paid, not forced; what was before the newest summary stays as it was.
          const newest = items.map((i) => i.state).lastIndexOf('summary');
          for (let i = 0; i <= newest; i++) expect(r.items[i]).toBe(items[i]);
          expect(r.firstChangedIndex).toBeGreaterThan(newest);
          // The tail window (from the third last assistant item on) stays full.
          expect(r.items.slice(-5).every((i) => i.state === 'full')).toBe(true);
        }
        peak = Math.max(peak, r.historyTokens);
        last = r.historyTokens;
        items = r.items.filter((i) => i.state !== 'summarized');
      }
      return { at, peak, last };
    };
    const paid = run({});
    // Not at once (the first turns have not paid yet), and again as new finished runs pay in turn.
    expect(paid.at.length).toBeGreaterThan(1);
    expect(paid.at[0]).toBeGreaterThan(3);
    const off = run({ rules: [foldRule({ briefShare: 0, cacheRead: 0 })] });
    expect(off.at).toEqual([]);
    expect(paid.peak).toBeLessThan(off.peak);
    expect(paid.last).toBeLessThan(off.last / 3);
    // Dearer cache reads pay sooner.
    const dear = run({ rules: [foldRule({ briefShare: 0, cacheRead: 0.5, cacheWrite: 1 })] });
    expect(dear.at[0]).toBeLessThan(paid.at[0]!);
    // Prices that cannot be are refused by name.
    expect(() => foldRule({ cacheWrite: 0 })).toThrow(/option cacheWrite/);
    expect(() => foldRule({ cacheRead: -0.1 })).toThrow(RulesInputError);
    expect(() => foldRule({ briefShare: Number.NaN })).toThrow(/option briefShare/);
  });

  it('below the marks, folds every run that has paid in one pass, however many: maxFoldAttempts does not hold a backlog back', () => {
    // A long conversation arrives at once (an import): pinned questions every 5 turns split it into 40 runs that have all paid.
    const b = new NodeBuilder();
    b.text('system', 'You are a careful assistant.');
    for (let i = 0; i < 200; i++) {
      b.text('user', `question ${i} ` + 'u'.repeat(400), 0, i % 5 === 0 ? { pinned: true } : undefined);
      b.text('assistant', `answer ${i} ` + 'a'.repeat(400));
    }
    const rules = [foldRule({ briefShare: 0, maxFoldAttempts: 2 })];
    const r = runPipeline([], b.nodes, { tokenizer: quarterTokenizer, historyBudget: 1_000_000, rules, now: 0 });
    const summaries = r.items.filter((i) => i.state === 'summary');
    expect(summaries.length).toBeGreaterThan(2);
    expect(summaries.every((i) => i.reason === 'fold')).toBe(true);
    // Every run went but the newest ones: the visible items before the last 40 are the system item, the pinned questions and summaries.
    const live = r.items.filter((i) => i.state !== 'summarized');
    expect(live.slice(0, -40).filter((i) => i.role !== 'system' && i.pinned !== true && i.state !== 'summary')).toEqual([]);
    // The next call finds nothing more to fold: the backlog is gone in one call, not two runs a call.
    const again = runPipeline(r.items.filter((i) => i.state !== 'summarized'), [], { tokenizer: quarterTokenizer, historyBudget: 1_000_000, rules, now: 1 });
    expect(again.report.summaries).toBe(0);
  });

  it('below the summary share, merges the summaries once their cache reads have cost four times the rewrite: soon where reads are dear', () => {
    const b = chatty(200);
    const session = (cacheRead: number, cacheWrite: number) => {
      const store = new FoldStore();
      // summaryShare 1: the summaries never pass the share, so a merge here is a paid one.
      const rules = [foldRule({ summaryShare: 1, cacheRead, cacheWrite })];
      let items: readonly ContextItem[] = [];
      const merges: number[] = [];
      for (let t = 0; t < 200; t++) {
        const r = store.add(runPipeline(items, b.nodes.slice(t === 0 ? 0 : 1 + 2 * t, 3 + 2 * t), { now: t, tokenizer: quarterTokenizer, historyBudget: 100_000, rules, foldedOf: store.get }));
        const merged = r.items.filter((it) => it.reason === 'fold_summaries' && !items.includes(it));
        if (merged.length > 0) {
          merges.push(t);
          // A summary of summaries, from the oldest summary on: nothing before it is rewritten.
          const oldest = items.findIndex((it) => it.state === 'summary');
          expect(r.firstChangedIndex).toBe(oldest);
          expect(r.items.slice(0, oldest)).toEqual(items.slice(0, oldest));
          for (const m of merged) expect(r.folds.get(m.key)?.filter((it) => it.folded !== undefined).length).toBeGreaterThanOrEqual(2);
        }
        items = r.items;
      }
      return { items, store, merges };
    };
    // At gpt-4o's prices (reads at half the input price) the summaries merge, more than once; at the rules' default
    // (Anthropic's: a tenth, writes at 1.25) their reads have not paid for a merge in 200 calls.
    const dear = session(0.5, 1);
    expect(dear.merges.length).toBeGreaterThan(1);
    expect(session(0.1, 1.25).merges).toEqual([]);
    expect(session(0, 1.25).merges).toEqual([]);
    // Nothing is lost: the live list and what lies under its summaries hold every message once, in order.
    const flat = dear.store.flat(dear.items).filter((it) => it.folded === undefined).map((it) => it.key);
    expect(flat).toEqual(b.nodes.map((_, i) => `n${i + 1}`));
  });

  it('lets the brief grow with the window (briefShare), and keeps briefBytes where the share is smaller or 0', () => {
    const b = new NodeBuilder();
    b.text('system', 'You are a careful assistant.');
    b.text('user', 'look through the orders');
    for (let i = 0; i < 60; i++) {
      b.text('assistant', `checking order ${i}`);
      b.tool('get_order', { order_id: `ORD-${1000 + i}` }, JSON.stringify({ order_id: `ORD-${1000 + i}`, sku: `SKU-${7000 + i}`, note: 'n'.repeat(400) }));
    }
    b.text('user', 'now the refunds');
    const bytes = (opts: object, historyBudget: number): number => {
      const r = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget, rules: [foldRule(opts)] });
      const s = r.items.filter((i) => i.state === 'summary');
      expect(s.length).toBeGreaterThan(0);
      return Math.max(...s.map((i) => new TextEncoder().encode((i.blocks[0] as { text: string }).text).length));
    };
    // 60 results of ~140 tokens (8,500 in all) over an upper mark of 4,000 (5,000 × 0.8): one fold of most of them.
    expect(bytes({}, 5_000)).toBeLessThanOrEqual(1400);
    expect(bytes({ briefShare: 0.5 }, 5_000)).toBeGreaterThan(1400);
    expect(bytes({ briefShare: 0.5 }, 5_000)).toBeLessThanOrEqual(2500);
    expect(bytes({ briefShare: 0, briefBytes: 600 }, 5_000)).toBeLessThanOrEqual(600);
  });
});

describe('defaultBrief keeps what later calls reuse', () => {
  const item = (key: string, role: ContextItem['role'], blocks: ContextItem['blocks']): ContextItem => ({ key, sourceNodeId: key, role, state: 'full', locked: false, blocks, tokens: 10, reason: 'new', touchedAt: 0 });
  it('carries the distinctive values of the folded results, fields named like call arguments first, within the allowance', () => {
    const details = JSON.stringify({ user_id: 'mia_li_3668', name: { first_name: 'Mia', last_name: 'Li' }, payment_methods: { credit_card_4421486: { source: 'credit_card', id: 'credit_card_4421486' } }, reservations: ['NO6JO3', 'AIXC49'], membership: 'gold' });
    const span = [
      item('a1', 'assistant', [{ type: 'text', text: 'Looking up the user.' }]),
      item('t1', 'tool', [
        { type: 'tool_call', id: 't1', name: 'get_user_details', arguments: '{"user_id":"mia_li_3668"}' },
        { type: 'tool_result', callId: 't1', name: 'get_user_details', output: details },
      ]),
      item('a2', 'assistant', [{ type: 'text', text: 'Checking a reservation.' }]),
      item('t2', 'tool', [
        { type: 'tool_call', id: 't2', name: 'get_reservation_details', arguments: '{"reservation_id":"NO6JO3"}' },
        { type: 'tool_result', callId: 't2', name: 'get_reservation_details', output: JSON.stringify({ reservation_id: 'NO6JO3', flights: [{ flight_number: 'HAT170', date: '2024-05-20' }] }) },
      ]),
    ];
    const brief = defaultBrief(span, 1400);
    const values = brief.split('\n').find((l) => l.startsWith('VALUES: '))!;
    // a key that is a code is a value of its container
    expect(values).toContain('payment_methods=credit_card_4421486');
    expect(values).toContain('flight_number=HAT170');
    expect(values).toContain('reservations=AIXC49');
    // Fields named like an argument of a call come first.
    expect(values.indexOf('reservation_id=NO6JO3')).toBeLessThan(values.indexOf('flight_number=HAT170'));
    expect(new TextEncoder().encode(brief).length).toBeLessThanOrEqual(1400);
    expect(brief.startsWith('[ctxgit brief] 2 steps, 2 tool results\n')).toBe(true);
    const small = defaultBrief(span, 200);
    expect(new TextEncoder().encode(small).length).toBeLessThanOrEqual(200);
  });

  it('keeps quantities under structured field names apart, and reads the values an aged stub kept first', () => {
    const reservation = JSON.stringify({ reservation_id: 'NO6JO3', total_baggages: 1, nonfree_baggages: 0, insurance: 'no', passengers: 1, cabin: 'economy', note: 'x'.repeat(400) });
    const span = [
      item('t1', 'tool', [
        { type: 'tool_call', id: 't1', name: 'get_reservation_details', arguments: '{"reservation_id":"NO6JO3"}' },
        { type: 'tool_result', callId: 't1', name: 'get_reservation_details', output: reservation },
      ]),
    ];
    const values = defaultBrief(span, 1400).split('\n').find((l) => l.startsWith('VALUES: '))!;
    // the same number under two fields is said twice: each field is what an update call passes
    expect(values).toContain('total_baggages=1');
    expect(values).toContain('nonfree_baggages=0');
    expect(values.indexOf('nonfree_baggages=0')).toBeLessThan(values.indexOf('cabin=economy'));
    const aged = { ...item('t2', 'tool', [{ type: 'tool_result', callId: 't2', name: 'get_user_details', output: '[tool get_user_details] output: {"name": … (900 chars)\nVALUES: user_id=mia_li_3668, payment_methods=credit_card_4421486' }]), state: 'aged' as const };
    const kept = defaultBrief([aged, ...span], 1400).split('\n').find((l) => l.startsWith('VALUES: '))!;
    expect(kept).toContain('payment_methods=credit_card_4421486');
    expect(kept.indexOf('payment_methods=credit_card_4421486')).toBeLessThan(kept.indexOf('cabin=economy'));
  });

  it('carries what a nested summary read through its brief kept: its values and its words', () => {
    const nested = {
      ...item('sm_old', 'user', [{ type: 'text', text: '[ctxgit brief] 4 steps, 3 tool results\nNEXT:\n- open fields.py at TimeDelta._serialize\nVALUES: user_id=mia_li_3668, credit_card_4421486\nSAID: precision_loss' }]),
      state: 'summary' as const,
      folded: ['a0', 't0'],
    };
    const span = [
      nested,
      item('a1', 'assistant', [{ type: 'text', text: 'Listing the directory.' }]),
      item('t1', 'tool', [
        { type: 'tool_call', id: 't1', name: 'ls', arguments: '{}' },
        { type: 'tool_result', callId: 't1', name: 'ls', output: 'fields.py\nsetup.py' },
      ]),
    ];
    const lines = defaultBrief(span, 1400).split('\n');
    // the brief's view reads the steps of the span; the nested summary's kept values and words carry on beside them
    expect(lines.find((l) => l.startsWith('VALUES: '))).toMatch(/^VALUES: .*user_id=mia_li_3668, credit_card_4421486/);
    const said = lines.find((l) => l.startsWith('SAID: '))!.split(' ');
    expect(said).toContain('precision_loss');
    expect(said).toContain('TimeDelta._serialize');
  });

  it('carries the words the folded steps wrote themselves, those written by more steps first, not those the brief already spells', () => {
    const span = [
      item('a1', 'assistant', [{ type: 'text', text: 'The rounding happens in TimeDelta serialization; reproduce it first.' }]),
      item('t1', 'tool', [
        { type: 'tool_call', id: 't1', name: 'edit', arguments: JSON.stringify({ command: 'edit 1:1\nfrom marshmallow.fields import TimeDelta\nend_of_edit\n' }) },
        { type: 'tool_result', callId: 't1', name: 'edit', output: 'File updated.' },
      ]),
      item('a2', 'assistant', [{ type: 'text', text: 'Now the rounding is visible in reproduce.py: precision lost.' }]),
    ];
    const lines = defaultBrief(span, 1400).split('\n');
    const said = lines.find((l) => l.startsWith('SAID: '))!;
    const words = said.slice('SAID: '.length).split(' ');
    // written by two steps, first (`rounding` too, but the NEXT line of the view quotes it); each once, in its first
    // spelling; common words left out
    expect(words[0]).toBe('TimeDelta');
    expect(words).not.toContain('rounding');
    expect(words).toContain('end_of_edit');
    expect(words).toContain('serialization');
    expect(words).not.toContain('first');
    // not glued to an escaped newline of the arguments, and not repeated from the other lines of the brief
    expect(said).not.toMatch(/\bnend_of_edit\b/);
    const rest = lines.filter((l) => l !== said).join('\n').toLowerCase();
    for (const w of words) expect(rest.includes(w.toLowerCase()) && new RegExp(`(^|[^A-Za-z0-9_./:-])${w.replace(/[.]/g, '\\.')}($|[^A-Za-z0-9_./:-])`, 'i').test(rest)).toBe(false);
    // a digest of messages without tool work carries them too, within the allowance
    const chat = defaultBrief([span[0]!, span[2]!], 120);
    expect(new TextEncoder().encode(chat).length).toBeLessThanOrEqual(120);
    expect(chat).toMatch(/^\[ctxgit brief\] 2 earlier messages\n/);
  });

  it('speaks plain grammar', () => {
    expect(defaultBrief([item('u', 'user', [{ type: 'text', text: 'hello' }])], 200)).toBe('[ctxgit brief] 1 earlier message\n- user: hello');
  });
});
