import { describe, expect, it } from 'vitest';
import { capRule, runPipeline } from '../src/index.js';
import { NodeBuilder, quarterTokenizer } from './helpers.js';

const ctx = { now: 0, tokenizer: quarterTokenizer, historyBudget: 1_000_000, rules: [capRule()] };

describe('capRule', () => {
  it('cuts a long result at head and tail with a marker, keeps state full, reason capped', () => {
    const b = new NodeBuilder();
    b.text('assistant', 'run it');
    const out = 'H'.repeat(3000) + 'M'.repeat(1500) + 'T'.repeat(1000);
    b.tool('bash', { command: 'make' }, out);
    const r = runPipeline([], b.nodes, ctx);
    const t = r.items[1]!;
    expect(t.state).toBe('full');
    expect(t.reason).toBe('capped');
    expect(t.blocks[1]).toEqual({
      type: 'tool_result',
      callId: 'n2',
      name: 'bash',
      output: `${'H'.repeat(2500)}\n[… ctxgit cut 2000 of 5500 chars …]\n${'T'.repeat(1000)}`,
      isError: false,
    });
    expect(t.blocks[0]).toEqual({ type: 'tool_call', id: 'n2', name: 'bash', arguments: '{"command":"make"}' });
    expect(t.tokens).toBe(Math.ceil(('bash({"command":"make"})\n' + (t.blocks[1] as { output: string }).output).length / 4));
    expect(r.report.capped).toBe(1);
    // Capping is stable: a second run changes nothing.
    expect(runPipeline(r.items, [], ctx).items).toEqual(r.items);
  });

  it('leaves short results, pinned items and non-tool items alone', () => {
    const b = new NodeBuilder();
    b.text('user', 'x'.repeat(9000));
    b.text('assistant', 'go');
    b.tool('bash', {}, 'y'.repeat(4000));
    b.tool('bash', {}, 'z'.repeat(5000), 0, { pinned: true });
    const r = runPipeline([], b.nodes, ctx);
    expect(r.items.map((i) => i.reason)).toEqual(['new', 'new', 'new', 'new']);
  });

  it('never splits a surrogate pair', () => {
    const b = new NodeBuilder();
    b.text('assistant', 'go');
    b.tool('cat', {}, 'a'.repeat(2499) + '😀'.repeat(1000) + 'b'.repeat(999));
    const out = (runPipeline([], b.nodes, ctx).items[1]!.blocks[1] as { output: string }).output;
    expect(out.startsWith('a'.repeat(2499) + '\n[…')).toBe(true);
    expect(out.endsWith('\n' + 'b'.repeat(999))).toBe(true);
    expect(() => encodeURIComponent(out)).not.toThrow();
  });
});
