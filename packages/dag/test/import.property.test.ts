import { MemoryNodeStore, branchView, importOpenAIChat, writeTranscript } from '@ctxgit/dag';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** A random valid OpenAI conversation: turns of user, assistant with 0-3 tool calls, their results (some missing). */
const conversation = fc
  .array(
    fc.record({
      user: fc.string({ maxLength: 8 }),
      calls: fc.array(fc.record({ name: fc.constantFrom('ls', 'cat', 'grep'), arg: fc.jsonValue({ maxDepth: 2 }), answered: fc.boolean(), result: fc.string({ maxLength: 8 }) }), { maxLength: 3 }),
      reply: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
    }),
    { maxLength: 8 },
  )
  .map((turns) => {
    const msgs: Array<Record<string, unknown>> = [{ role: 'system', content: 'sys' }];
    turns.forEach((t, i) => {
      msgs.push({ role: 'user', content: t.user });
      if (t.calls.length > 0) {
        msgs.push({ role: 'assistant', content: null, tool_calls: t.calls.map((c, k) => ({ id: `c${i}_${k}`, type: 'function', function: { name: c.name, arguments: JSON.stringify({ v: c.arg }) } })) });
        t.calls.forEach((c, k) => {
          if (c.answered) msgs.push({ role: 'tool', tool_call_id: `c${i}_${k}`, content: c.result });
        });
      }
      if (t.reply !== undefined) msgs.push({ role: 'assistant', content: t.reply });
    });
    return msgs;
  });

describe('importers over random conversations', () => {
  it('every message becomes a node, in order, tool calls under their assistant, all written in one session', async () => {
    await fc.assert(
      fc.asyncProperty(conversation, async (msgs) => {
        const [t] = importOpenAIChat(JSON.stringify(msgs));
        if (t === undefined) throw new Error('no transcript');
        const calls = msgs.flatMap((m) => (m['tool_calls'] as unknown[] | undefined) ?? []);
        const conv = msgs.filter((m) => m['role'] !== 'tool');
        expect(t.entries).toHaveLength(conv.length + calls.length);
        const store = new MemoryNodeStore();
        const w = await writeTranscript(store, 'p', t, { clock: () => 0 });
        const view = w.session.head === null ? [] : await branchView(store, w.session.head);
        expect(view).toHaveLength(t.entries.length);
        expect(view.filter((n) => n.role !== 'tool').map((n) => n.output)).toEqual(conv.map((m) => (m['content'] as string | null) ?? ''));
        const answered = new Map(msgs.filter((m) => m['role'] === 'tool').map((m) => [m['tool_call_id'], m['content']]));
        for (const n of view.filter((v) => v.role === 'tool')) {
          const id = (n.metadata?.['source'] as { toolCallId: string }).toolCallId;
          expect(n.output).toBe(answered.get(id) ?? '');
          expect((await store.getNode(n.caller ?? ''))?.role).toBe('assistant');
        }
      }),
      { numRuns: 150 },
    );
  });
});
