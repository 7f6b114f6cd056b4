import Anthropic from '@anthropic-ai/sdk';
import { openRepo } from '@ctxgit/commit';
import type { FsLike, Session } from '@ctxgit/commit';
import { Volume, createFsFromVolume } from 'memfs';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../../../examples/chat-backend/test/fake-provider.js';
import type { FakeProvider } from '../../../examples/chat-backend/test/fake-provider.js';
import { UnsupportedRequestError, wrapAnthropic, wrapOpenAI } from '../src/index.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
});

async function session(model: string): Promise<Session> {
  let t = 1_700_000_000_000;
  const fs = createFsFromVolume(new Volume()) as unknown as FsLike;
  const repo = await openRepo({ memory: true, fs, fsync: false, clock: () => (t += 1000) });
  return repo.createSession('chat', { model });
}

describe('wrapOpenAI against a fake Chat Completions server on loopback', () => {
  it('appends only the new messages, sends the rendered commit, records usage and reports it', async () => {
    const s = await session('openai:gpt-4o');
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${fake.url}/v1`, maxRetries: 0 });
    const openai = wrapOpenAI(client, s);
    const first = fake.requests.length;
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You list files.' },
      { role: 'user', content: 'what is in /tmp?' },
    ];
    const r1 = await openai.chat.completions.create({ model: 'gpt-4o', messages, temperature: 0 });
    expect(r1.choices[0]?.message.content).toMatch(/^reply \d+$/);
    expect([r1.ctxgit.session, r1.ctxgit.matched, r1.ctxgit.appended]).toEqual(['chat', 0, 2]);
    const sent1 = fake.requests[first]?.body as { model: string; temperature: number; messages: unknown[] };
    expect(fake.requests[first]?.issues).toEqual([]);
    expect([sent1.model, sent1.temperature]).toEqual(['gpt-4o', 0]);
    expect(sent1.messages).toEqual(messages);
    expect(r1.ctxgit.commit).toBe((await s.commit()).id);
    expect(r1.ctxgit.usage.inputTokens).toBe(r1.usage?.prompt_tokens);
    expect(await s.occupancy()).toMatchObject({ basis: 'measured', total_used: r1.usage?.prompt_tokens });

    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"/tmp"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt\nb.txt' },
      { role: 'user', content: 'and how many?' },
    );
    const tools = [{ type: 'function' as const, function: { name: 'ls', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
    const r2 = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
    expect([r2.ctxgit.matched, r2.ctxgit.appended, r2.ctxgit.summary.added]).toEqual([2, 3, 3]);
    const sent2 = fake.requests[first + 1]?.body as { messages: { role: string; tool_calls?: unknown; tool_call_id?: string }[]; tools: unknown };
    expect(fake.requests[first + 1]?.issues).toEqual([]);
    expect(sent2.tools).toEqual(tools);
    expect(sent2.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(sent2.messages[2]?.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"/tmp"}' } }]);
    expect(sent2.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'a.txt\nb.txt' });
    expect((await s.log()).length).toBe(2);

    const r3 = await openai.chat.completions.create({ model: 'gpt-4o', messages });
    expect([r3.ctxgit.matched, r3.ctxgit.appended, r3.ctxgit.commit]).toEqual([5, 0, r2.ctxgit.commit]);

    // a caller that keeps a window of the last messages: the session continues, the rules decide what is sent
    const window: ChatCompletionMessageParam[] = [...messages.slice(2), { role: 'assistant', content: 'two' }, { role: 'user', content: 'thanks' }];
    const r4 = await openai.chat.completions.create({ model: 'gpt-4o', messages: window });
    expect([r4.ctxgit.matched, r4.ctxgit.appended]).toEqual([3, 2]);
    const sent4 = fake.requests[first + 3]?.body as { messages: { role: string }[] };
    expect(sent4.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant', 'user']);
  });

  it('refuses streaming and leaves every other member to the client', async () => {
    const s = await session('openai:gpt-4o');
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${fake.url}/v1`, maxRetries: 0 });
    const openai = wrapOpenAI(client, s);
    const streaming = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }], stream: true } as unknown as Parameters<typeof openai.chat.completions.create>[0];
    await expect(openai.chat.completions.create(streaming)).rejects.toThrow(UnsupportedRequestError);
    await expect(openai.chat.completions.create(streaming)).rejects.toMatchObject({ code: 'E_CLIENTS_UNSUPPORTED', data: { field: 'stream' } });
    expect(await s.head()).toBeNull();
    expect(openai.baseURL).toBe(client.baseURL);
    expect(openai.models).toBe(client.models);
  });
});

describe('wrapAnthropic against a fake Messages server on loopback', () => {
  it('sends the rendered commit with tool use, records usage and reports it', async () => {
    const s = await session('anthropic:claude-sonnet-4-5');
    const anthropic = wrapAnthropic(new Anthropic({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 }), s);
    const first = fake.requests.length;
    const messages: MessageParam[] = [{ role: 'user', content: 'what is in /tmp?' }];
    const r1 = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 512, system: 'You list files.', messages });
    expect([r1.ctxgit.matched, r1.ctxgit.appended]).toEqual([0, 2]);
    const sent1 = fake.requests[first]?.body as { system: { type: string; text: string }[]; messages: unknown[]; max_tokens: number };
    expect(fake.requests[first]?.issues).toEqual([]);
    expect(sent1.system.map((b) => b.text)).toEqual(['You list files.']);
    expect(sent1.max_tokens).toBe(512);
    expect(r1.ctxgit.usage.inputTokens).toBe(r1.usage.input_tokens);

    messages.push(
      { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'toolu_1', name: 'ls', input: { path: '/tmp' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] },
    );
    const r2 = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 512, system: 'You list files.', messages });
    expect([r2.ctxgit.matched, r2.ctxgit.appended]).toEqual([2, 2]);
    const sent2 = fake.requests[first + 1]?.body as { messages: { role: string; content: { type: string; id?: string; tool_use_id?: string }[] }[]; tools: { name: string }[] };
    expect(fake.requests[first + 1]?.issues).toEqual([]);
    expect(sent2.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent2.messages[1]?.content.find((b) => b.type === 'tool_use')?.id).toBe('toolu_1');
    expect(sent2.messages[2]?.content.find((b) => b.type === 'tool_result')?.tool_use_id).toBe('toolu_1');
    expect(sent2.tools.map((t) => t.name)).toEqual(['ls']);
    expect(await s.occupancy()).toMatchObject({ basis: 'measured' });
  });
});
