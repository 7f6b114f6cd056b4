import type { LanguageModelV3GenerateResult, LanguageModelV3Usage } from '@ai-sdk/provider';
import { openRepo } from '@ctxgit/commit';
import type { FsLike, Session } from '@ctxgit/commit';
import { branchView } from '@ctxgit/dag';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { Volume, createFsFromVolume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ctxgitMiddleware, modelMessagesToHistory, nodesToModelMessages } from '../src/index.js';

function usage(input: number, cacheRead = 0): LanguageModelV3Usage {
  return { inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
}

function reply(content: LanguageModelV3GenerateResult['content'], input: number, finish: 'stop' | 'tool-calls'): LanguageModelV3GenerateResult {
  return { content, finishReason: { unified: finish, raw: finish }, usage: usage(input, 10), warnings: [] };
}

async function setup(): Promise<{ session: Session; repo: Awaited<ReturnType<typeof openRepo>> }> {
  let t = 1_700_000_000_000;
  const fs = createFsFromVolume(new Volume()) as unknown as FsLike;
  const repo = await openRepo({ memory: true, fs, fsync: false, clock: () => (t += 1000) });
  return { repo, session: await repo.createSession('agent', { model: 'openai:gpt-4o' }) };
}

const ls = tool({ description: 'List a directory', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => (path === '/tmp' ? 'a.txt\nb.txt' : 'no such directory') });

describe('ctxgitMiddleware with the AI SDK mock language model', () => {
  it('runs a tool loop through the session: new messages appended, commit rendered as the prompt, usage recorded', async () => {
    const { session, repo } = await setup();
    const mock = new MockLanguageModelV3({
      doGenerate: [
        reply([{ type: 'tool-call', toolCallId: 'call-1', toolName: 'ls', input: '{"path":"/tmp"}' }], 120, 'tool-calls'),
        reply([{ type: 'text', text: 'Two files: a.txt and b.txt.' }], 160, 'stop'),
      ],
    });
    const model = wrapLanguageModel({ model: mock, middleware: ctxgitMiddleware({ session }) });
    const result = await generateText({ model, system: 'You list files.', messages: [{ role: 'user', content: 'what is in /tmp?' }], tools: { ls }, stopWhen: stepCountIs(3) });

    expect(result.text).toBe('Two files: a.txt and b.txt.');
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(mock.doGenerateCalls[0]?.prompt).toEqual([
      { role: 'system', content: 'You list files.' },
      { role: 'user', content: [{ type: 'text', text: 'what is in /tmp?' }] },
    ]);
    expect(mock.doGenerateCalls[1]?.prompt.slice(2)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'ls', input: { path: '/tmp' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'ls', output: { type: 'text', value: 'a.txt\nb.txt' } }] },
    ]);
    const [first, second] = result.steps.map((s) => s.providerMetadata?.['ctxgit']);
    expect(first).toMatchObject({ session: 'agent', matched: 0, appended: 2 });
    expect(second).toMatchObject({ session: 'agent', matched: 2, appended: 2 });
    const log = await session.log();
    expect(log.map((e) => e.id)).toEqual([second?.['commit'], first?.['commit']]);
    expect(await session.occupancy()).toMatchObject({ basis: 'measured', total_used: 160 });

    const head = await session.head();
    const nodes = await branchView(repo.store, head ?? '');
    expect(nodes.map((n) => [n.role, n.name ?? '', n.output])).toEqual([
      ['system', '', 'You list files.'],
      ['user', '', 'what is in /tmp?'],
      ['assistant', '', ''],
      ['tool', 'ls', 'a.txt\nb.txt'],
    ]);
    expect(nodes[3]).toMatchObject({ input: { path: '/tmp' }, caller: nodes[2]?.id, metadata: { callId: 'call-1', isError: false, outputType: 'text' } });
  });

  it('records usage from a stream and reports the commit in the finish part', async () => {
    const { session } = await setup();
    const mock = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'hello' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(42) },
        ]),
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: ctxgitMiddleware({ session }) });
    const result = streamText({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(await result.text).toBe('hello');
    const meta = (await result.providerMetadata)?.['ctxgit'];
    expect(meta).toMatchObject({ session: 'agent', matched: 0, appended: 1, commit: (await session.commit()).id });
    expect(await session.occupancy()).toMatchObject({ basis: 'measured', total_used: 42 });
  });
});

describe('ModelMessage[] <-> DAG nodes', () => {
  it('keeps text, tool calls and every kind of tool result through a round trip', async () => {
    const { session, repo } = await setup();
    const messages = [
      { role: 'system' as const, content: 'rules' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] },
      {
        role: 'assistant' as const,
        content: [
          { type: 'text' as const, text: 'calling' },
          { type: 'tool-call' as const, toolCallId: 'a', toolName: 'read', input: { file: 'x' } },
          { type: 'tool-call' as const, toolCallId: 'b', toolName: 'stat', input: { file: 'x' } },
        ],
      },
      {
        role: 'tool' as const,
        content: [
          { type: 'tool-result' as const, toolCallId: 'a', toolName: 'read', output: { type: 'error-text' as const, value: 'denied' } },
          { type: 'tool-result' as const, toolCallId: 'b', toolName: 'stat', output: { type: 'json' as const, value: { size: 3 } } },
        ],
      },
      { role: 'assistant' as const, content: 'done' },
    ];
    await session.appendNew(modelMessagesToHistory(messages));
    const nodes = await branchView(repo.store, (await session.head()) ?? '');
    expect(nodesToModelMessages(nodes)).toEqual([
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'go' },
      messages[2],
      messages[3],
      { role: 'assistant', content: 'done' },
    ]);
    expect(modelMessagesToHistory(nodesToModelMessages(nodes))).toEqual(modelMessagesToHistory(messages));
  });
});
