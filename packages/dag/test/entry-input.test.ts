import { describe, expect, it } from 'vitest';
import { appendNode, createSession, entryInput, importOpenAIChat, MemoryNodeStore, writeTranscript } from '../src/index.js';
import type { TranscriptEntry } from '../src/index.js';

const conversation = JSON.stringify({
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'List the files.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
    { role: 'assistant', content: 'One file: a.txt.' },
  ],
});

describe('entryInput', () => {
  it('keeps role, output, name, input, metadata; takes the caller as given; leaves predecessor and createdAt out', () => {
    const e: TranscriptEntry = { role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: 2, predecessor: 1, createdAt: 5, metadata: { k: 1 } };
    expect(entryInput(e, 'n2')).toEqual({ role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: 'n2', metadata: { k: 1 } });
    expect(entryInput(e, 0)).toMatchObject({ caller: 0 });
    expect(Object.keys(entryInput({ role: 'user', output: 'hi' }))).toEqual(['role', 'output']);
  });

  it('appending each entry with it stores the nodes writeTranscript stores (same content and edges)', async () => {
    const [t] = importOpenAIChat(`${conversation}\n`);
    if (t === undefined) throw new Error('no transcript');
    const whole = new MemoryNodeStore();
    const written = await writeTranscript(whole, 'w', t, { clock: () => 1 });
    const byOne = new MemoryNodeStore();
    await createSession(byOne, 'a');
    const ids: string[] = [];
    for (const e of t.entries) ids.push((await appendNode(byOne, 'a', entryInput(e, e.caller === undefined ? undefined : ids[e.caller]), { clock: () => 1 })).id);
    const strip = (n: { role: string; name?: string; input?: unknown; output: string; metadata?: unknown }) => ({ role: n.role, name: n.name, input: n.input, output: n.output, metadata: n.metadata });
    const a = await Promise.all(written.ids.map(async (id) => strip((await whole.getNode(id)) as never)));
    const b = await Promise.all(ids.map(async (id) => strip((await byOne.getNode(id)) as never)));
    expect(b).toEqual(a);
    const tool = await byOne.getNode(ids[3] as string);
    expect(tool?.caller).toBe(ids[2]);
  });
});
