import { describe, expect, it } from 'vitest';
import { capRule, runPipeline, type ContextItem } from '../src/index.js';
import { NodeBuilder, quarterTokenizer } from './helpers.js';

// The marks the cases below are written for: upper 0.8, emergency 0.95 of the history budget.
const ctx = (historyBudget: number) => ({ now: 0, tokenizer: quarterTokenizer, historyBudget, rules: [capRule()], band: { foldAt: 0.8 } });
const output = (it: ContextItem | undefined): string => (it?.blocks[1] as { output: string }).output;
/** Two rounds, each an assistant step and a 5,500-character result (about 1,380 tokens each). */
const rounds = (): NodeBuilder => {
  const b = new NodeBuilder();
  b.text('assistant', 'run it');
  b.tool('bash', { command: 'make' }, 'H'.repeat(3000) + 'M'.repeat(1500) + 'T'.repeat(1000));
  b.text('assistant', 'again');
  b.tool('bash', { command: 'make check' }, 'h'.repeat(3000) + 'm'.repeat(1500) + 't'.repeat(1000));
  return b;
};

describe('capRule', () => {
  it('cuts nothing while the history is under the upper mark, not even a long latest result', () => {
    const r = runPipeline([], rounds().nodes, ctx(1_000_000));
    expect(r.items.map((i) => i.reason)).toEqual(['new', 'new', 'new', 'new']);
    expect(r.report.capped).toBe(0);
  });

  it('under pressure, cuts older results at head and tail with a marker, only as far as the upper mark needs, keeps state full, reason capped; not the latest round', () => {
    const c = ctx(3000); // upper mark 2,400; the two results hold about 2,760 tokens
    const r = runPipeline([], rounds().nodes, c);
    const t = r.items[1]!;
    expect(t.state).toBe('full');
    expect(t.reason).toBe('capped');
    expect(t.blocks[1]).toEqual({
      type: 'tool_result',
      callId: 'n2',
      name: 'bash',
      // More than the standard 2,500 + 1,000 characters: as much as the upper mark allows, head and tail 5 : 2.
      output: `${'H'.repeat(2534)}\n[… ctxgit cut 1952 of 5500 chars …]\n${'M'.repeat(14)}${'T'.repeat(1000)}`,
      isError: false,
    });
    expect(t.blocks[0]).toEqual({ type: 'tool_call', id: 'n2', name: 'bash', arguments: '{"command":"make"}' });
    expect(t.tokens).toBe(Math.ceil(('bash({"command":"make"})\n' + output(t)).length / 4));
    expect(r.items[3]!.reason).toBe('new');
    expect(r.historyTokens).toBeLessThanOrEqual(2400);
    expect(r.report.capped).toBe(1);
    // Capping is stable: a second run changes nothing.
    expect(runPipeline(r.items, [], c).items).toEqual(r.items);
  });

  it('above the emergency mark, cuts the latest result too, then harder until the history fits', () => {
    const r = runPipeline([], rounds().nodes, ctx(1500)); // emergency mark 1,425
    expect(r.items.filter((i) => i.reason === 'capped')).toHaveLength(2);
    expect(r.historyTokens).toBeLessThanOrEqual(1425);
    expect(output(r.items[1])).toBe(`${'H'.repeat(1250)}\n[… ctxgit cut 3750 of 5500 chars …]\n${'T'.repeat(500)}`);
    expect(output(r.items[3])).toMatch(/^h{2500}\n\[… ctxgit cut 2000 of 5500 chars …\]\nt{1000}$/);
  });

  it('above the emergency mark, keeps of the latest result as much as the emergency mark allows', () => {
    const r = runPipeline([], rounds().nodes, ctx(2000)); // upper mark 1,600, emergency mark 1,900
    expect(r.historyTokens).toBeLessThanOrEqual(1900);
    const latest = output(r.items[3]);
    const [head, tail] = latest.split(/\n\[… ctxgit cut \d+ of 5500 chars …\]\n/) as [string, string];
    // More than the standard 2,500 + 1,000 characters, head and tail in their ratio.
    expect(head.length).toBeGreaterThan(2500);
    expect(tail.length).toBeGreaterThan(1000);
    expect(Math.abs(head.length / tail.length - 2.5)).toBeLessThan(0.01);
  });

  it('leaves short results, pinned items and non-tool items alone', () => {
    const b = new NodeBuilder();
    b.text('user', 'x'.repeat(9000));
    b.text('assistant', 'go');
    b.tool('bash', {}, 'y'.repeat(4000));
    b.tool('bash', {}, 'z'.repeat(5000), 0, { pinned: true });
    b.text('assistant', 'next');
    const r = runPipeline([], b.nodes, ctx(5000)); // about 4,510 tokens: above the upper mark, under the emergency mark
    expect(r.items.map((i) => i.reason)).toEqual(['new', 'new', 'new', 'new', 'new']);
  });

  it('never splits a surrogate pair', () => {
    const b = new NodeBuilder();
    b.text('assistant', 'go');
    b.tool('cat', {}, 'a'.repeat(2499) + '😀'.repeat(1000) + 'b'.repeat(999));
    b.text('assistant', 'next');
    const out = output(runPipeline([], b.nodes, ctx(1000)).items[1]);
    expect(out.startsWith('a'.repeat(2499) + '\n[…')).toBe(true);
    expect(out.endsWith('\n' + 'b'.repeat(999))).toBe(true);
    expect(() => encodeURIComponent(out)).not.toThrow();
  });
});
