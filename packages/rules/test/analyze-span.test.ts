import { describe, expect, it } from 'vitest';
import { analyzeSpan, distinctiveTokens, isFailedResult, runPipeline, type ContextItem } from '../src/index.js';
import { NodeBuilder, quarterTokenizer } from './helpers.js';

function debugSession(): readonly ContextItem[] {
  const b = new NodeBuilder();
  b.text('user', 'fix parse_config');
  b.text('assistant', 'search for it'); // n2
  b.tool('grep', { pattern: 'parse_config' }, 'src/config_loader.py:12: def parse_config(raw_text):'); // n3
  b.text('assistant', 'open src/config_loader.py'); // n4
  b.tool('open', { path: 'src/config_loader.py' }, '[File: /repo/src/config_loader.py (40 lines total)]\n12: def parse_config(raw_text):\n13:     return json.loads(raw_text)'); // n5
  b.tool('bash', { command: 'python -m pytest tests/test_cfg.py' }, 'Traceback (most recent call last):\n  File "x.py"\nValueError: bad json'); // n6
  b.text('assistant', 'guard raw_text before json.loads'); // n7
  b.tool('edit', { path: 'src/config_loader.py', old: 'json.loads(raw_text)', new: 'json.loads(raw_text or "{}")' }, 'File updated.'); // n8
  b.text('assistant', 'run the tests again'); // n9
  b.tool('bash', { command: 'python -m pytest tests/test_cfg.py' }, '3 passed in 0.2s'); // n10
  b.text('assistant', 'all green'); // n11
  return runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 1e9, rules: [] }).items;
}

describe('distinctiveTokens', () => {
  it('keeps paths and identifiers, drops short and common words, lower-cases', () => {
    expect([...distinctiveTokens('Open src/app/Main.py and fix parse_config. Then return the value 12345!')]).toEqual(['src/app/main.py', 'parse_config']);
    expect([...distinctiveTokens('x'.repeat(65) + ' ' + 'y'.repeat(64))]).toEqual(['y'.repeat(64)]);
  });
});

describe('isFailedResult', () => {
  it('recognizes error text and the flag', () => {
    for (const t of ['Traceback (most recent call last):', 'bash: foo: command not found', 'cat: x: No such file or directory', 'Process exited with code 2', 'Error: boom', 'ModuleNotFoundError: No module named x'])
      expect(isFailedResult(t)).toBe(true);
    expect(isFailedResult('ok', true)).toBe(true);
    expect(isFailedResult('3 passed, exit code 0')).toBe(false);
  });
});

describe('analyzeSpan', () => {
  const a = analyzeSpan(debugSession());

  it('builds the weighted dependency edges', () => {
    expect(a.nodes).toEqual(['n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'n10', 'n11']);
    expect(a.edges.map((e) => `${e.from}>${e.to}:${e.kind}:${e.weight}`)).toEqual([
      'n3>n2:call:1',
      'n4>n2:step:1',
      'n4>n3:reuse:2',
      'n5>n4:call:1',
      'n6>n4:call:1',
      'n7>n4:step:1',
      'n7>n5:reuse:2',
      'n7>n6:round:0',
      'n8>n7:call:1',
      'n9>n7:step:1',
      'n9>n8:round:0',
      'n10>n9:call:1',
      'n11>n9:step:1',
      'n11>n10:round:0',
    ]);
    expect(a.reused.get('n3')).toEqual(['src/config_loader.py']);
    expect(a.reused.get('n5')).toEqual(['json.loads', 'raw_text']);
  });

  it('finds the critical chain, failures and supersession', () => {
    expect(a.frontier).toBe('n11');
    expect(a.criticalChain).toEqual(['n2', 'n3', 'n4', 'n5', 'n7', 'n9', 'n11']);
    expect(a.chainWeight).toBe(8);
    expect([...a.failed]).toEqual(['n6']);
    expect([...a.superseded]).toEqual([
      ['n5', 'n8'],
      ['n6', 'n10'],
    ]);
  });

  it('renders the continuation view in shortest-path order under the allowance', () => {
    expect(a.continuation.text).toBe(
      [
        '[ctxgit brief] 5 steps, 5 tool results',
        'NEXT:',
        '- all green',
        'ON DISK:',
        '- src/config_loader.py (edit)',
        'RULED OUT:',
        '- bash {"command":"python -m pytest tests/test_cfg.py"}: Traceback (most recent call last):',
        'ESTABLISHED:',
        '- grep {"pattern":"parse_config"}: src/config_loader.py',
        '- bash {"command":"python -m pytest tests/test_cfg.py"}: 3 passed in 0.2s',
      ].join('\n'),
    );
    expect(a.continuation.order[0]).toBe('n11');
    const tight = analyzeSpan(debugSession(), { briefBytes: 120 });
    expect(new TextEncoder().encode(tight.continuation.text).length).toBeLessThanOrEqual(120);
    expect(tight.continuation.next).toEqual(['- all green']);
  });

  it('scales without a fan-out limit: a step reading 2,000 results of one round', () => {
    const b = new NodeBuilder();
    b.text('user', 'go');
    b.text('assistant', 'read them all');
    for (let i = 0; i < 2000; i++) b.tool('cat', { path: `f${i}.txt` }, `token_${i}_value`);
    b.text('assistant', 'token_1999_value and token_7_value matter');
    const items = runPipeline([], b.nodes, { now: 0, tokenizer: quarterTokenizer, historyBudget: 1e9, rules: [] }).items;
    const big = analyzeSpan(items);
    expect(big.edges.filter((e) => e.kind === 'reuse').map((e) => e.to)).toEqual(['n10', 'n2002']);
    // Ties go to the newest result.
    expect(big.criticalChain).toEqual(['n2', 'n2002', 'n2003']);
  });
});
