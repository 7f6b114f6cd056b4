import { describe, expect, it } from 'vitest';
import { agingRule, runPipeline, type ContextItem } from '../src/index.js';
import { NodeBuilder, quarterTokenizer } from './helpers.js';

const base = { now: 0, tokenizer: quarterTokenizer, historyBudget: 1_000_000, band: { epochs: false } };

/** Five rounds: assistant step i calls `name_i` with a distinct output. */
function session(names: string[] = ['bash', 'bash', 'bash', 'bash', 'bash']): NodeBuilder {
  const b = new NodeBuilder();
  b.text('user', 'please do the work');
  names.forEach((name, i) => {
    b.text('assistant', `round ${i}`);
    b.tool(name, { command: `step ${i} ${'q'.repeat(300)}` }, `output ${i} ` + 'r'.repeat(120));
  });
  return b;
}

describe('agingRule', () => {
  it('ages tool results outside the last 3 assistant turns into exact stubs', () => {
    const r = runPipeline([], session().nodes, { ...base, rules: [agingRule({ graphProtection: false })] });
    const states = r.items.filter((i) => i.role === 'tool').map((i) => `${i.key}:${i.state}:${i.reason}`);
    expect(states).toEqual(['n3:aged:tail_window', 'n5:aged:tail_window', 'n7:full:new', 'n9:full:new', 'n11:full:new']);
    const aged = r.items.find((i) => i.key === 'n3')!;
    const args = JSON.stringify({ command: `step 0 ${'q'.repeat(300)}` });
    expect(aged.blocks).toEqual([
      { type: 'tool_call', id: 'n3', name: 'bash', arguments: `${args.slice(0, 200)}…` },
      { type: 'tool_result', callId: 'n3', name: 'bash', output: `[tool bash] output: output 0 ${'r'.repeat(71)}… (129 chars)`, isError: false },
    ]);
    expect(aged.tokens).toBe(Math.ceil(`bash(${args.slice(0, 200)}…)\n[tool bash] output: output 0 ${'r'.repeat(71)}… (129 chars)`.length / 4));
    expect(r.report.aged).toBe(2);
  });

  it('keeps the distinctive values of an aged result on a VALUES line of its stub (at most 240 bytes)', () => {
    const b = new NodeBuilder();
    b.text('user', 'change my booking');
    const details = JSON.stringify({ user_id: 'mia_li_3668', payment_methods: { credit_card_4421486: { id: 'credit_card_4421486', brand: 'visa' } }, reservations: ['NO6JO3', 'AIXC49'], bio: 'w'.repeat(600) });
    b.text('assistant', 'looking up');
    b.tool('get_user_details', { user_id: 'mia_li_3668' }, details);
    for (let i = 0; i < 4; i++) {
      b.text('assistant', `round ${i}`);
      b.tool('bash', { command: `step ${i}` }, `output ${i}`);
    }
    const r = runPipeline([], b.nodes, { ...base, rules: [agingRule({ graphProtection: false })] });
    const aged = r.items.find((i) => i.state === 'aged' && i.blocks.some((x) => x.type === 'tool_result' && x.name === 'get_user_details'))!;
    const out = aged.blocks.find((x) => x.type === 'tool_result')!;
    const line = (out as { output: string }).output.split('\n')[1]!;
    expect(line).toMatch(/^VALUES: user_id=mia_li_3668, /);
    expect(line).toContain('payment_methods=credit_card_4421486');
    expect(line).toContain('reservations=AIXC49');
    expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(240);
  });

  it('never ages protected tools (default and extended), pinned or locked items', () => {
    const b = session(['todo_list', 'Web_Search', 'read_plan', 'bash', 'bash']);
    const r = runPipeline([], b.nodes, { ...base, rules: [agingRule({ protectedTools: ['read_plan'], graphProtection: false })] });
    expect(r.items.filter((i) => i.role === 'tool').map((i) => i.state)).toEqual(['full', 'full', 'full', 'full', 'full']);
    const pinned = session();
    const locked: ContextItem[] = runPipeline([], pinned.nodes, { ...base, rules: [] }).items.map((i) => (i.key === 'n3' ? { ...i, locked: true } : i.key === 'n5' ? { ...i, pinned: true } : i));
    const r2 = runPipeline(locked, [], { ...base, rules: [agingRule({ graphProtection: false })] });
    expect(r2.items.filter((i) => i.role === 'tool').map((i) => i.state)).toEqual(['full', 'full', 'full', 'full', 'full']);
  });

  it('ages a superseded result inside the tail (reason superseded)', () => {
    const b = new NodeBuilder();
    b.text('user', 'go');
    b.text('assistant', 'read it');
    b.tool('open', { path: 'src/app.py' }, 'v1 of app');
    b.text('assistant', 'read again');
    b.tool('open', { path: 'src/app.py' }, 'v2 of app');
    const r = runPipeline([], b.nodes, { ...base, rules: [agingRule({ graphProtection: false })] });
    expect(r.items.map((i) => `${i.key}:${i.state}:${i.reason}`)).toEqual(['n1:full:new', 'n2:full:new', 'n3:aged:superseded', 'n4:full:new', 'n5:full:new']);
    const off = runPipeline([], b.nodes, { ...base, rules: [agingRule({ graphProtection: false, ageSuperseded: false })] });
    expect(off.items.every((i) => i.state === 'full')).toBe(true);
  });

  it('with epochs on, waits for the upper mark before aging', () => {
    const nodes = session().nodes;
    const quiet = runPipeline([], nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 100_000, rules: [agingRule()] });
    expect(quiet.items.every((i) => i.state === 'full')).toBe(true);
    expect(quiet.report.epoch).toBe(false);
    const tight = runPipeline([], nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 400, rules: [agingRule({ graphProtection: false })] });
    expect(tight.report.epoch).toBe(true);
    expect(tight.report.aged).toBe(2);
  });

  it('keeps the protected part of the critical chain full', () => {
    const b = new NodeBuilder();
    b.text('user', 'fix parse_config');
    b.text('assistant', 'search');
    b.tool('grep', { pattern: 'parse_config' }, 'src/config_loader.py:12: def parse_config(raw_text):');
    for (let i = 0; i < 4; i++) {
      b.text('assistant', i === 0 ? 'open src/config_loader.py' : `step ${i}`);
      b.tool('bash', { command: `echo ${i}` }, `noise ${i}`);
    }
    const r = runPipeline([], b.nodes, { ...base, rules: [agingRule()] });
    expect(r.items.find((i) => i.key === 'n3')!.state).toBe('full');
    expect(r.items.find((i) => i.key === 'n5')!.state).toBe('aged');
  });
});

describe('protection lets go', () => {
  /** Task 1: each step reuses an identifier of the previous result (a critical chain); then a new user turn. */
  const twoTasks = (reuse: boolean): NodeBuilder => {
    const b = new NodeBuilder();
    b.text('user', 'trace the value');
    for (let i = 0; i < 5; i++) {
      b.text('assistant', i === 0 ? 'start' : `follow marker_${i - 1}_value`);
      b.tool('lookup', { q: `q${i}` }, `marker_${i}_value ` + 'd'.repeat(200));
    }
    b.text('user', 'now something else');
    b.text('assistant', reuse ? 'finish marker_3_value' : 'new work');
    for (let i = 0; i < 3; i++) {
      b.text('assistant', `other ${i}`);
      b.tool('other', { q: `o${i}` }, 'e'.repeat(200));
    }
    return b;
  };
  const chainStates = (reuse: boolean): string[] =>
    runPipeline([], twoTasks(reuse).nodes, { ...base, rules: [agingRule()] }).items.filter((i) => i.role === 'tool' && (i.blocks[0] as { name: string }).name === 'lookup').map((i) => i.state);

  it('ages the finished chain once a step answered the new user turn without reusing it', () => {
    expect(chainStates(false)).toEqual(['aged', 'aged', 'aged', 'aged', 'aged']);
  });

  it('keeps a chain result that a step since the new turn reuses', () => {
    expect(chainStates(true)).toEqual(['aged', 'aged', 'aged', 'full', 'aged']);
  });

  /** Task 1 on JSON records that all name `record_id` and say `delayed`; then a new turn whose step looks up `record`. */
  const records = (record: string): string[] => {
    const b = new NodeBuilder();
    b.text('user', 'trace the record');
    for (let i = 0; i < 5; i++) {
      b.text('assistant', i === 0 ? 'start' : `follow REC${i - 1}X`);
      b.tool('lookup', { record_id: `REC${i}X` }, JSON.stringify({ record_id: `REC${i}X`, status: 'delayed', note: 'd'.repeat(200) }));
    }
    b.text('user', 'now another record');
    b.text('assistant', `checking the delayed record ${record}`);
    b.tool('lookup', { record_id: record }, JSON.stringify({ record_id: record, status: 'delayed' }));
    for (let i = 0; i < 3; i++) {
      b.text('assistant', `other ${i}`);
      b.tool('other', { q: `o${i}` }, 'e'.repeat(200));
    }
    return runPipeline([], b.nodes, { ...base, rules: [agingRule()] })
      .items.filter((i) => i.role === 'tool' && (i.blocks[0] as { name: string }).name === 'lookup')
      .map((i) => i.state)
      .slice(0, 5);
  };

  it('lets a chain result go when the new work shares only an argument name or a plain word with it', () => {
    expect(records('NEW77Q')).toEqual(['aged', 'aged', 'aged', 'aged', 'aged']);
  });

  it('keeps a chain result whose value the new work passes on', () => {
    expect(records('REC3X')).toEqual(['aged', 'aged', 'aged', 'full', 'aged']);
  });
});
