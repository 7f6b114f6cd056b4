// The fake provider refuses what the real APIs refuse, so that a passing end-to-end test means valid requests.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from './fake-provider.js';
import type { FakeProvider } from './fake-provider.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => fake.close());

describe('fake provider', () => {
  it('answers a valid Chat Completions request in the API format, with usage', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 });
    fake.script('hi!');
    const res = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    expect(res.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'hi!' });
    expect(res.choices[0]?.finish_reason).toBe('stop');
    expect(res.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(res.usage?.total_tokens).toBe((res.usage?.prompt_tokens ?? 0) + (res.usage?.completion_tokens ?? 0));
  });

  it('refuses an OpenAI request that breaks the protocol (an unanswered tool call) with a 400', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 });
    const bad = client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
        { role: 'user', content: 'well?' },
      ],
    });
    await expect(bad).rejects.toMatchObject({ status: 400 });
    expect(fake.requests.at(-1)?.issues.length).toBeGreaterThan(0);
  });

  it('answers a valid Messages request in the API format, and refuses one that does not alternate', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    fake.script('hello from claude');
    const res = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.content).toEqual([{ type: 'text', text: 'hello from claude' }]);
    expect(res.stop_reason).toBe('end_turn');
    expect(res.usage.input_tokens).toBeGreaterThan(0);
    const bad = client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'assistant', content: 'first' }] });
    await expect(bad).rejects.toMatchObject({ status: 400 });
    expect(fake.requests.at(-1)?.issues.length).toBeGreaterThan(0);
  });

  it('refuses a request without credentials and an unknown route', async () => {
    const noKey = await fetch(`${fake.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }) });
    expect(noKey.status).toBe(400);
    expect(((await noKey.json()) as { error: { message: string } }).error.message).toContain('Authorization');
    expect((await fetch(`${fake.url}/v1/embeddings`, { method: 'POST' })).status).toBe(404);
  });
});
