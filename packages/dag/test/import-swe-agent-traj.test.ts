import { importSweAgentTraj } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';
import { corpusFiles, readCorpus, store } from './corpus.js';

interface H {
  role: string;
  content: string;
  action?: string;
  is_demo?: boolean;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_ids?: string[];
}

describe('importSweAgentTraj on the SWE-agent corpus', () => {
  const files = corpusFiles('swe-agent', '.traj');
  it('the corpus folder holds 16 trajectories', () => {
    expect(files).toHaveLength(16);
  });

  for (const file of files) {
    it(`${file}: node counts match the history`, async () => {
      const text = readCorpus('swe-agent', file);
      const traj = JSON.parse(text) as { history: H[]; trajectory?: unknown[] };
      const history = traj.history;
      // Count independently: every non-observation message is a node, plus one tool node per call or action.
      let conversation = 0;
      let calls = 0;
      const observations: string[] = [];
      let actionPending = false;
      const toolOutputs: string[] = [];
      for (const m of history) {
        const isObservation = (m.role === 'tool' && (m.tool_call_ids?.length ?? 0) > 0) || ((m.role === 'user' || m.role === 'tool') && actionPending);
        actionPending = false;
        if (isObservation) {
          observations.push(m.content);
          toolOutputs.push(m.content);
          continue;
        }
        conversation++;
        if (m.role === 'assistant') {
          const fc = m.tool_calls?.length ?? 0;
          const act = fc === 0 && (m.action ?? '').trim() !== '' ? 1 : 0;
          calls += fc + act;
          actionPending = act === 1;
        }
      }
      const t = importSweAgentTraj(text);
      expect(t.entries).toHaveLength(conversation + calls);
      expect(t.stats['toolResults'] ?? 0).toBe(observations.length);
      expect(t.stats['unansweredCalls'] ?? 0).toBe(calls - observations.length);
      expect(t.skipped['demo']).toBeUndefined();
      expect(t.skipped['trajectory'] ?? 0).toBe(traj.trajectory?.length ?? 0);
      expect(t.malformed).toEqual([]);
      const { nodes, view } = await store(t);
      expect(nodes).toHaveLength(t.entries.length);
      expect(view).toHaveLength(t.entries.length);
      const tools = view.filter((n) => n.role === 'tool');
      expect(tools).toHaveLength(calls);
      expect(tools.filter((n) => !(n.metadata?.['source'] as { resultMissing?: boolean }).resultMissing).map((n) => n.output)).toEqual(toolOutputs);
      for (const n of tools) expect(view[view.indexOf(n) - 1]?.role === 'assistant' || view[view.indexOf(n) - 1]?.role === 'tool').toBe(true);
    });
  }

  it('plain-text actions: the tool is named by the first word of the command, input holds the command', () => {
    const t = importSweAgentTraj(readCorpus('swe-agent', 'ctf__crypto__eps.traj'));
    const first = t.entries.find((e) => e.role === 'tool');
    expect(first).toMatchObject({ name: 'file', input: { command: 'file ~/ctf_files/*\n' }, caller: 2 });
    expect(first?.output).toMatch(/^\/root\/ctf_files\/\*: cannot open/);
    expect(first?.metadata?.['source']).toMatchObject({ style: 'action', role: 'user', index: 3, agent: 'primary' });
    const last = t.entries.at(-1);
    expect(last).toMatchObject({ role: 'tool', name: 'submit', output: '', metadata: { source: { resultMissing: true } } });
    expect(t.entries[t.head ?? -1]?.role).toBe('assistant');
  });

  it('function calling: tool entries carry the parsed arguments and the tool message', () => {
    const t = importSweAgentTraj(readCorpus('swe-agent', 'function_calling_simple.traj'));
    const tools = t.entries.filter((e) => e.role === 'tool');
    expect(tools.map((e) => e.name)).toEqual(['find_file', 'open', 'edit', 'bash', 'submit']);
    expect(tools[1]).toMatchObject({ input: { path: 'tests/missing_colon.py' }, metadata: { source: { style: 'function', toolCallId: 'call_upNLxh7rBcDH9w5XiNdoAS0I', role: 'tool', message_type: 'observation' } } });
    expect(t.entries[1]).toMatchObject({ role: 'user', metadata: { source: { message_type: 'observation' } } });
  });
});

describe('importSweAgentTraj', () => {
  it('keeps demonstrations (SWE-agent sends them in every request), marked is_demo', () => {
    const t = importSweAgentTraj({
      history: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'demo q', is_demo: true },
        { role: 'assistant', content: 'demo a', action: 'ls', is_demo: true },
        { role: 'user', content: 'demo obs', is_demo: true },
        { role: 'assistant', content: 'demo b', action: 'submit', is_demo: true },
        { role: 'user', content: 'task' },
        { role: 'assistant', content: [{ type: 'text', text: 'run ls' }], action: 'ls -la' },
        { role: 'user', content: 'a b' },
      ],
    });
    expect(t.skipped).toEqual({});
    expect(t.entries.map((e) => [e.role, e.output])).toEqual([
      ['system', 's'],
      ['user', 'demo q'],
      ['assistant', 'demo a'],
      ['tool', 'demo obs'],
      ['assistant', 'demo b'],
      ['tool', ''],
      ['user', 'task'],
      ['assistant', 'run ls'],
      ['tool', 'a b'],
    ]);
    expect(t.entries[1]?.metadata?.['source']).toMatchObject({ is_demo: true });
    expect(t.entries[6]?.metadata?.['source']).not.toHaveProperty('is_demo');
    expect(t.entries[8]).toMatchObject({ name: 'ls', input: { command: 'ls -la' }, caller: 7 });
  });

  it.each<[unknown, string, number | undefined]>([
    ['{', 'not JSON', undefined],
    [[], 'trajectory is array', undefined],
    [{ trajectory: [] }, 'no history array', undefined],
    [{ history: [{ role: 'user', content: 'x' }, { role: 'wizard', content: 'x' }] }, 'unknown role "wizard"', 1],
    [{ history: [{ role: 'tool', content: 'x', tool_call_ids: ['nope'] }] }, 'tool call "nope"', 0],
    [{ history: [{ role: 'user', content: 'x' }, { role: 'tool', content: 'x' }] }, 'answers no call', 1],
    [{ history: [{ role: 'assistant', content: '', tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }, { id: 'b', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', content: 'x', tool_call_ids: ['a', 'b'] }] }, 'answers 2 calls', 1],
    [{ history: [{ role: 'user', content: { text: 'x' } }] }, 'content is object', 0],
  ])('refuses %j (%s) naming the message', (value, reason, index) => {
    expect(() => importSweAgentTraj(value)).toThrow(
      expect.objectContaining({ code: 'E_DAG_MALFORMED_TRANSCRIPT', data: { format: 'swe-agent', ...(index === undefined ? {} : { index }), reason: expect.stringContaining(reason) as string } }),
    );
  });

  it('under malformed: skip, lists the bad message and keeps the rest', () => {
    const t = importSweAgentTraj({ history: [{ role: 'user', content: 'x' }, { role: 'wizard', content: 'y' }, { role: 'assistant', content: 'z' }] }, { malformed: 'skip' });
    expect(t.malformed).toEqual([{ index: 1, reason: 'unknown role "wizard"' }]);
    expect(t.entries.map((e) => e.output)).toEqual(['x', 'z']);
    expect(t.skipped).toEqual({ malformed: 1 });
  });
});
