import { describe, expect, it } from 'vitest';
import { agingRule, defaultRules, OPEN_TOOLS, runPipeline, RulesInputError } from '../src/index.js';
import { NodeBuilder, quarterTokenizer } from './helpers.js';

const base = { now: 0, tokenizer: quarterTokenizer, historyBudget: 1_000_000, band: { epochs: false } };

/** A user request, a navigation call, then the useful call it led to. */
function navigation(): NodeBuilder {
  const b = new NodeBuilder();
  b.text('user', 'scan the ports of 10.0.0.7');
  b.text('assistant', 'Let me find the scanner.');
  b.tool(OPEN_TOOLS, { open: 'security/scan' }, `Opened security/scan: port_scan (Scan the TCP ports of a host.) ${'x'.repeat(200)}`);
  b.text('assistant', 'Scanning.');
  b.tool('port_scan', { host: '10.0.0.7' }, 'open: 22, 80');
  return b;
}

describe('navigation results are short-lived', () => {
  it('an open_tools result ages once an assistant item follows it, inside the tail window and on the critical chain', () => {
    for (const graphProtection of [false, true]) {
      const r = runPipeline([], navigation().nodes, { ...base, rules: [agingRule({ graphProtection })] });
      const tools = r.items.filter((i) => i.role === 'tool').map((i) => `${i.blocks[0]?.type === 'tool_call' ? i.blocks[0].name : ''}:${i.state}:${i.reason}`);
      expect(tools).toEqual([`${OPEN_TOOLS}:aged:short_lived`, 'port_scan:full:new']);
    }
  });

  it('the latest navigation result stays full until the model has read it', () => {
    const b = new NodeBuilder();
    b.text('user', 'scan');
    b.text('assistant', 'Let me look.');
    b.tool(OPEN_TOOLS, { search: 'port scan' }, 'Found: security/scan/port_scan');
    const r = runPipeline([], b.nodes, { ...base, rules: defaultRules() });
    expect(r.items.find((i) => i.role === 'tool')?.state).toBe('full');
  });

  it('is an option: protected or not short-lived, it keeps the ordinary aging', () => {
    const kept = runPipeline([], navigation().nodes, { ...base, rules: [agingRule({ graphProtection: false, shortLivedTools: [] })] });
    expect(kept.items.filter((i) => i.role === 'tool').map((i) => i.state)).toEqual(['full', 'full']);
    const protectedNav = runPipeline([], navigation().nodes, { ...base, rules: [agingRule({ graphProtection: false, protectedTools: [OPEN_TOOLS] })] });
    expect(protectedNav.items.filter((i) => i.role === 'tool').map((i) => i.state)).toEqual(['full', 'full']);
    expect(() => agingRule({ shortLivedTools: [''] })).toThrow(RulesInputError);
  });
});
