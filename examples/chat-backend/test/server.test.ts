// End to end over loopback, for both providers: HTTP in (fastify on 127.0.0.1), git commit (ctxgit), render, the real
// SDK client (openai / @anthropic-ai/sdk) pointed at a fake provider that checks every request, HTTP out.
import type { Repo } from '@ctxgit/commit';
import { openRepo } from '@ctxgit/commit';
import { render } from '@ctxgit/render';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient, openaiClient } from '../src/model-client.js';
import { buildServer } from '../src/server.js';
import { startFakeProvider } from './fake-provider.js';
import type { FakeProvider } from './fake-provider.js';

interface Turn {
  reply: { id: string; content: string; siblings: { index: number; total: number } };
  commit: { id: string; totalTokens: number };
  usage: { inputTokens: number };
  occupancy: { window: number; total_used: number; basis: string };
}
interface Message {
  id: string;
  role: string;
  content: string;
  siblings: { index: number; total: number };
}

for (const provider of ['openai-chat', 'anthropic'] as const) {
  describe(`chat backend with ${provider}`, () => {
    let fake: FakeProvider;
    let repo: Repo;
    let app: FastifyInstance;
    let base: string;
    let t = 1_700_000_000_000;

    const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> => {
      const res = await fetch(`${base}${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      return { status: res.status, json: (await res.json()) as T };
    };
    const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const r = await call<T>(method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json;
    };
    /** What the fake provider received last, and what render gives for that commit: they must be equal. */
    const lastRequest = (): unknown => fake.requests.at(-1)?.body;
    const rendered = async (commit: string): Promise<unknown> => {
      const c = await repo.readCommit(commit);
      return JSON.parse(JSON.stringify(provider === 'anthropic' ? render(c, { provider, maxTokens: 1024 }) : render(c, { provider })));
    };

    beforeAll(async () => {
      fake = await startFakeProvider();
      repo = await openRepo({ memory: true, clock: () => (t += 1000) });
      const client =
        provider === 'anthropic'
          ? anthropicClient({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 })
          : openaiClient({ apiKey: 'test-key', baseURL: `${fake.url}/v1`, maxRetries: 0 });
      app = buildServer({ repo, client });
      base = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await app.close();
      await fake.close();
    });

    it('creates a session and answers a message through the SDK, from a commit rendered for the provider', async () => {
      const created = await call<{ session: string; model: string; window: number }>('POST', '/sessions', { name: 'chat' });
      expect(created.status).toBe(201);
      expect(created.json.session).toBe('chat');
      expect(created.json.model).toBe(provider === 'anthropic' ? 'anthropic:claude-sonnet-4-5' : 'openai:gpt-4o');
      fake.script('Hello! How can I help?');
      const turn = await ok<Turn>('POST', '/sessions/chat/messages', { content: 'Hi there' });
      expect(turn.reply.content).toBe('Hello! How can I help?');
      expect(turn.reply.siblings).toEqual({ index: 1, total: 1 });
      const req = fake.requests.at(-1);
      expect(req?.issues).toEqual([]);
      expect(req?.path).toBe(provider === 'anthropic' ? '/v1/messages' : '/v1/chat/completions');
      expect(lastRequest()).toEqual(await rendered(turn.commit.id));
      expect(turn.occupancy.basis).toBe('measured');
      expect(turn.occupancy.total_used).toBe(turn.usage.inputTokens);
      expect(await ok('GET', '/sessions/chat/occupancy')).toEqual(turn.occupancy);
    });

    it('sends the whole conversation on the next turn, and the log shows one commit per model call', async () => {
      fake.script('Paris.');
      const turn = await ok<Turn>('POST', '/sessions/chat/messages', { content: 'What is the capital of France?' });
      expect(turn.reply.content).toBe('Paris.');
      const body = lastRequest() as { messages: { role: string }[] };
      expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(lastRequest()).toEqual(await rendered(turn.commit.id));
      const log = await ok<{ commits: { id: string; parentIds: string[] }[] }>('GET', '/sessions/chat/log');
      expect(log.commits).toHaveLength(2);
      expect(log.commits[0]?.id).toBe(turn.commit.id);
      expect(log.commits[0]?.parentIds).toEqual([log.commits[1]?.id]);
    });

    it('retries: the same commit is sent again, the new answer is a sibling < 2/2 >, and switching shows < 1/2 >', async () => {
      const before = await ok<{ messages: Message[] }>('GET', '/sessions/chat/messages');
      const previousRequest = lastRequest();
      fake.script('The capital of France is Paris.');
      const turn = await ok<Turn>('POST', '/sessions/chat/retry');
      expect(lastRequest()).toEqual(previousRequest);
      expect(turn.reply.siblings).toEqual({ index: 2, total: 2 });
      const first = before.messages.at(-1) as Message;
      const sib = await ok<{ index: number; total: number; label: string }>('GET', `/sessions/chat/siblings/${first.id}`);
      expect(sib).toMatchObject({ index: 1, total: 2, label: '< 1/2 >' });
      const switched = await ok<{ messages: Message[] }>('POST', '/sessions/chat/switch', { nodeId: turn.reply.id, index: 1 });
      expect(switched.messages.map((m) => m.content)).toEqual(['Hi there', 'Hello! How can I help?', 'What is the capital of France?', 'Paris.']);
      expect(switched.messages.at(-1)?.siblings).toEqual({ index: 1, total: 2 });
      const back = await ok<{ messages: Message[] }>('POST', '/sessions/chat/switch', { nodeId: turn.reply.id, index: 2 });
      expect(back.messages.at(-1)?.content).toBe('The capital of France is Paris.');
    });

    it('edits a question: a sibling of the original, answered anew', async () => {
      const msgs = (await ok<{ messages: Message[] }>('GET', '/sessions/chat/messages')).messages;
      const question = msgs[2] as Message;
      fake.script('Berlin.');
      const turn = await ok<Turn>('POST', '/sessions/chat/edit', { nodeId: question.id, content: 'What is the capital of Germany?' });
      expect(turn.reply.content).toBe('Berlin.');
      const after = (await ok<{ messages: Message[] }>('GET', '/sessions/chat/messages')).messages;
      expect(after.map((m) => m.content)).toEqual(['Hi there', 'Hello! How can I help?', 'What is the capital of Germany?', 'Berlin.']);
      expect(after[2]?.siblings).toEqual({ index: 2, total: 2 });
      expect(lastRequest()).toEqual(await rendered(turn.commit.id));
    });

    it('forks, attaches the fork, and merges sessions with a multi-parent commit', async () => {
      const fork = await call<{ session: string; head: string }>('POST', '/sessions/chat/fork', { name: 'side' });
      expect(fork.status).toBe(201);
      fake.script('Side answer.');
      await ok<Turn>('POST', '/sessions/side/messages', { content: 'A side question' });
      await ok('POST', '/sessions', { name: 'notes' });
      fake.script('Noted.');
      await ok<Turn>('POST', '/sessions/notes/messages', { content: 'Remember: the meeting is at 10.' });
      const attached = await ok<{ pointer: string }>('POST', '/sessions/chat/attach', { session: 'notes' });
      expect(attached.pointer).toMatch(/^[0-9a-f]{16}$/);
      fake.script('I see your notes.');
      await ok<Turn>('POST', '/sessions/chat/messages', { content: 'When is the meeting?' });
      expect(JSON.stringify(lastRequest())).toContain('Remember: the meeting is at 10.');
      expect(fake.requests.at(-1)?.issues).toEqual([]);
      const merged = await ok<{ commit: string; parentIds: string[] }>('POST', '/sessions/chat/merge', { peers: ['side'], instruction: 'Combine both threads.' });
      expect(merged.parentIds).toHaveLength(2);
      fake.script('Combined.');
      const turn = await ok<Turn>('POST', '/sessions/chat/retry');
      expect(turn.reply.content).toBe('Combined.');
      expect(JSON.stringify(lastRequest())).toContain('Side answer.');
      expect(fake.requests.at(-1)?.issues).toEqual([]);
      expect((await ok<{ sessions: string[] }>('GET', '/sessions')).sessions).toEqual(['chat', 'notes', 'side']);
    });

    it('answers bad requests with 4xx JSON errors carrying the ctxgit code, and writes nothing', async () => {
      const headBefore = await (await repo.openSession('chat')).head();
      const logBefore = (await ok<{ commits: unknown[] }>('GET', '/sessions/chat/log')).commits.length;
      const cases: [string, string, unknown, number, string][] = [
        ['POST', '/sessions/nope/messages', { content: 'hi' }, 404, 'E_COMMIT_UNKNOWN_SESSION'],
        ['POST', '/sessions/chat/messages', { content: '' }, 400, 'E_BACKEND_BAD_REQUEST'],
        ['POST', '/sessions/chat/messages', { text: 'hi' }, 400, 'E_BACKEND_BAD_REQUEST'],
        ['POST', '/sessions/chat/messages', '[1,2]', 400, 'E_BACKEND_BAD_REQUEST'],
        ['POST', '/sessions/chat/messages', '{not json', 400, 'E_BACKEND_BAD_REQUEST'],
        ['POST', '/sessions', { name: 'chat' }, 409, 'E_COMMIT_SESSION_EXISTS'],
        ['POST', '/sessions', { name: 'bad..name' }, 400, 'E_GIT_INVALID_NAME'],
        ['POST', '/sessions', { name: 'x', model: 'acme:unknown' }, 400, 'E_COMMIT_UNKNOWN_MODEL'],
        ['POST', '/sessions/chat/edit', { nodeId: 'nope', content: 'x' }, 400, 'E_BACKEND_BAD_REQUEST'],
        ['POST', '/sessions/chat/switch', { nodeId: headBefore, index: 9 }, 400, 'E_BACKEND_BAD_REQUEST'],
        ['POST', '/sessions/chat/fork', { name: 'side' }, 409, 'E_COMMIT_SESSION_EXISTS'],
        ['POST', '/sessions/chat/attach', { session: 'nope' }, 404, 'E_COMMIT_UNKNOWN_SESSION'],
        ['POST', '/sessions/chat/merge', { peers: ['chat'] }, 400, 'E_COMMIT_SELF_MERGE'],
        ['POST', '/sessions/chat/merge', { peers: [] }, 400, 'E_BACKEND_BAD_REQUEST'],
        ['GET', '/sessions/nope/occupancy', undefined, 404, 'E_COMMIT_UNKNOWN_SESSION'],
      ];
      for (const [method, path, body, status, code] of cases) {
        const r = await call<{ error: { code: string; message: string } }>(method, path, body);
        expect([path, r.status, r.json.error.code]).toEqual([path, status, code]);
        expect(r.json.error.message.length).toBeGreaterThan(0);
      }
      expect(await (await repo.openSession('chat')).head()).toBe(headBefore);
      expect((await ok<{ commits: unknown[] }>('GET', '/sessions/chat/log')).commits).toHaveLength(logBefore);
      expect((await ok<{ sessions: string[] }>('GET', '/sessions')).sessions).toEqual(['chat', 'notes', 'side']);
    });

    it('a provider failure is a 502 that leaves the question without a half-written answer; retry completes the turn', async () => {
      fake.failNext(500);
      const r = await call<{ error: { code: string; data: { status: number } } }>('POST', '/sessions/notes/messages', { content: 'And lunch?' });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('E_BACKEND_PROVIDER');
      expect(r.json.error.data.status).toBe(500);
      const msgs = (await ok<{ messages: Message[] }>('GET', '/sessions/notes/messages')).messages;
      expect(msgs.map((m) => [m.role, m.content])).toEqual([
        ['user', 'Remember: the meeting is at 10.'],
        ['assistant', 'Noted.'],
        ['user', 'And lunch?'],
      ]);
      fake.script('Lunch is at noon.');
      const turn = await ok<Turn>('POST', '/sessions/notes/retry');
      expect(turn.reply.content).toBe('Lunch is at noon.');
    });

    it('serializes concurrent turns on one session: every request answered, the chat alternates', async () => {
      await ok('POST', '/sessions', { name: 'race' });
      fake.script('one', 'two', 'three');
      const results = await Promise.all(['a', 'b', 'c'].map((q) => call<Turn>('POST', '/sessions/race/messages', { content: `question ${q}` })));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const msgs = (await ok<{ messages: Message[] }>('GET', '/sessions/race/messages')).messages;
      expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
      expect(msgs.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['one', 'two', 'three']);
      const log = await ok<{ commits: unknown[] }>('GET', '/sessions/race/log');
      expect(log.commits).toHaveLength(3);
    });

    it('every request the fake provider received followed the provider rules', () => {
      expect(fake.requests.length).toBeGreaterThan(8);
      for (const r of fake.requests) expect(r.issues).toEqual([]);
      for (const r of fake.requests) {
        const key = r.headers['x-api-key'] ?? r.headers['authorization'];
        expect(key === 'test-key' || key === 'Bearer test-key').toBe(true);
        if (provider === 'anthropic') expect(typeof r.headers['anthropic-version']).toBe('string');
      }
    });
  });
}

const liveKey = process.env['OPENAI_API_KEY'];
describe.skipIf(liveKey === undefined || liveKey === '')('chat backend against the real OpenAI API (runs when OPENAI_API_KEY is set)', () => {
  it('answers one message', async () => {
    const repo = await openRepo({ memory: true });
    const app = buildServer({ repo, client: openaiClient({ apiKey: liveKey ?? '' }), model: 'openai:gpt-4o-mini' });
    await app.ready();
    await app.inject({ method: 'POST', url: '/sessions', payload: { name: 'live' } });
    const res = await app.inject({ method: 'POST', url: '/sessions/live/messages', payload: { content: 'Reply with the single word: pong' } });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Turn).reply.content.toLowerCase()).toContain('pong');
    await app.close();
  });
});
