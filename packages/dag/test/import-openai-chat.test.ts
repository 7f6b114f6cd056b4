import { MalformedTranscriptError, MemoryNodeStore, importOpenAIChat, writeTranscript, type Transcript } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';
import { corpusFiles, readCorpus, store } from './corpus.js';

interface Msg {
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

describe('importOpenAIChat on the tau-bench corpus', () => {
  const files = corpusFiles('tau-bench-airline', '.jsonl');
  it('the corpus folder holds the expected files', () => {
    expect(files).toEqual(['gpt-4o-airline.jsonl']);
  });

  for (const file of files) {
    it(`${file}: one transcript per line, node counts match the source`, async () => {
      const text = readCorpus('tau-bench-airline', file);
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      const transcripts = importOpenAIChat(text);
      expect(transcripts).toHaveLength(lines.length);
      expect(transcripts).toHaveLength(150);
      for (const [i, line] of lines.entries()) {
        const conv = JSON.parse(line) as { traj: Msg[]; task_id: number; reward: number };
        const msgs = conv.traj;
        const t = transcripts[i] as Transcript;
        const calls = msgs.flatMap((m) => m.tool_calls ?? []);
        const toolMsgs = msgs.filter((m) => m.role === 'tool');
        const conversation = msgs.filter((m) => m.role !== 'tool');
        expect(t.line).toBe(i + 1);
        expect(t.entries).toHaveLength(conversation.length + calls.length);
        expect(t.stats['toolResults'] ?? 0).toBe(toolMsgs.length);
        expect(t.stats['unansweredCalls'] ?? 0).toBe(calls.length - toolMsgs.length);
        expect(t.skipped).toEqual({});
        expect(t.malformed).toEqual([]);
        expect(t.metadata).toMatchObject({ task_id: conv.task_id, reward: conv.reward });
        const { nodes, view } = await store(t);
        expect(nodes).toHaveLength(t.entries.length);
        expect(view).toHaveLength(t.entries.length);
        expect(view.filter((n) => n.role !== 'tool').map((n) => [n.role, n.output])).toEqual(conversation.map((m) => [m.role, m.content ?? '']));
        const tools = view.filter((n) => n.role === 'tool');
        expect(tools.map((n) => n.name)).toEqual(calls.map((c) => c.function.name));
        expect(tools.map((n) => n.output)).toEqual(toolMsgs.map((m) => m.content));
        expect(tools.map((n) => JSON.stringify(n.input))).toEqual(calls.map((c) => JSON.stringify(JSON.parse(c.function.arguments))));
        for (const [k, n] of tools.entries()) {
          const src = n.metadata?.['source'] as { rawArguments?: string; toolCallId: string };
          expect(src.toolCallId).toBe(calls[k]?.id);
          // The arguments text is recoverable byte for byte.
          expect(src.rawArguments ?? JSON.stringify(n.input)).toBe(calls[k]?.function.arguments);
        }
      }
    });
  }
});

describe('importOpenAIChat', () => {
  const convo = [
    { role: 'developer', content: 'be brief' },
    { role: 'user', name: 'ann', content: [{ type: 'text', text: 'list ' }, { type: 'text', text: 'files' }] },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'ls', arguments: '{ "path": "." }' } },
        { id: 'c2', type: 'function', function: { name: 'cat', arguments: 'not json' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
    { role: 'assistant', content: 'done', refusal: null },
  ];

  it('turns a parsed conversation into entries, tool calls hung under their assistant', () => {
    const [t] = importOpenAIChat(convo);
    expect(t?.entries).toEqual([
      { role: 'system', output: 'be brief', metadata: { source: { index: 0, role: 'developer' } } },
      { role: 'user', name: 'ann', output: 'list files', predecessor: 0, metadata: { source: { index: 1 } } },
      { role: 'assistant', output: '', predecessor: 1, metadata: { source: { index: 2 } } },
      { role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: 2, metadata: { source: { toolCallId: 'c1', rawArguments: '{ "path": "." }', call: { type: 'function' }, index: 3 } } },
      { role: 'tool', name: 'cat', input: 'not json', output: '', caller: 2, metadata: { source: { toolCallId: 'c2', rawArguments: 'not json', call: { type: 'function' }, resultMissing: true } } },
      { role: 'assistant', output: 'done', predecessor: 2, metadata: { source: { index: 4, refusal: null } } },
    ]);
    expect(t?.head).toBe(5);
    expect(t?.stats).toEqual({ toolResults: 1, unansweredCalls: 1 });
  });

  it('keeps arguments a node cannot store as parsed JSON (a __proto__ key, a lone surrogate) as their text, so the transcript still writes', async () => {
    const args = ['{"v":{"__proto__":false}}', '{"s":"\\ud800"}'];
    const [t] = importOpenAIChat([{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: args.map((a, i) => ({ id: `c${i}`, type: 'function', function: { name: 'ls', arguments: a } })) }]);
    const tools = (t?.entries ?? []).filter((e) => e.role === 'tool');
    expect(tools.map((e) => [e.input, (e.metadata?.['source'] as { rawArguments?: string }).rawArguments])).toEqual(args.map((a) => [a, a]));
    const store = new MemoryNodeStore();
    if (t === undefined) throw new Error('no transcript');
    const w = await writeTranscript(store, 'p', t, { clock: () => 0 });
    expect(w.session.head).not.toBeNull();
  });

  it('reads a JSON document or an object with messages, keeping the other fields', () => {
    const a = importOpenAIChat(JSON.stringify(convo));
    const b = importOpenAIChat({ messages: convo, id: 'x' });
    expect(a).toHaveLength(1);
    expect(b[0]?.entries).toEqual(a[0]?.entries);
    expect(b[0]?.metadata).toEqual({ id: 'x' });
  });

  it('names line and message of malformed input', () => {
    const jsonl = [JSON.stringify(convo), '', JSON.stringify([{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'zz', content: 'r' }]), '{oops'].join('\n');
    const err = (() => {
      try {
        importOpenAIChat(jsonl);
      } catch (e) {
        return e as MalformedTranscriptError;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(MalformedTranscriptError);
    expect(err?.data).toMatchObject({ format: 'openai-chat', line: 3, index: 1 });
    expect(err?.data.reason).toContain('tool_call_id "zz"');
    const skipped = importOpenAIChat(jsonl, { malformed: 'skip' });
    expect(skipped).toHaveLength(3);
    expect(skipped[1]?.malformed).toEqual([{ line: 3, index: 1, reason: expect.stringContaining('which no earlier assistant message issued') as string }]);
    expect(skipped[1]?.skipped).toEqual({ malformed: 1 });
    expect(skipped[1]?.entries).toHaveLength(1);
    expect(skipped[2]).toMatchObject({ line: 4, entries: [], head: null, skipped: { malformed: 1 } });
    expect(skipped[2]?.malformed[0]?.reason).toMatch(/^not JSON/);
  });

  it.each<[unknown, string]>([
    [[{ role: 'robot', content: 'x' }], 'unknown role "robot"'],
    [[{ role: 'user', content: 5 }], 'content is number'],
    [[{ role: 'user', content: [{ type: 'image_url' }] }], 'only text parts'],
    [[{ role: 'user', content: null }], 'content is null'],
    [['hi'], 'message is string'],
    [[{ role: 'user', content: 'x', tool_calls: [] }], 'cannot carry tool_calls'],
    [[{ role: 'assistant', content: '', tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }, { id: 'a', function: { name: 'g', arguments: '{}' } }] }], 'issued again'],
    [[{ role: 'assistant', content: '', tool_calls: [{ id: 'a', function: { name: 'f', arguments: {} } }] }], 'expected JSON text'],
    [[{ role: 'assistant', content: '', tool_calls: [{ function: { name: 'f' } }] }], 'no string id'],
    [[{ role: 'tool', content: 'x' }], 'no string tool_call_id'],
    [[{ role: 'user', content: 'bad \ud800' }], 'message.content is not JSON: lone surrogate'],
    [{ foo: 1 }, 'no messages or traj array'],
    [42, 'conversation is number'],
  ])('refuses %j: %s', (value, reason) => {
    expect(() => importOpenAIChat(value)).toThrow(expect.objectContaining({ code: 'E_DAG_MALFORMED_TRANSCRIPT', data: expect.objectContaining({ reason: expect.stringContaining(reason) as string }) as object }));
  });

  it('allows a call id to be reused once answered, and counts it', () => {
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, function: { name: 'f', arguments: '{}' } }] });
    const [t] = importOpenAIChat([call('x'), { role: 'tool', tool_call_id: 'x', content: '1' }, call('x'), { role: 'tool', tool_call_id: 'x', content: '2' }]);
    expect(t?.entries.filter((e) => e.role === 'tool').map((e) => [e.caller, e.output])).toEqual([[0, '1'], [2, '2']]);
    expect(t?.stats['reusedCallIds']).toBe(1);
  });
});
