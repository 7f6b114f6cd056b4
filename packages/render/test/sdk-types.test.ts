import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { render, validateRequest, type AnthropicRequest, type OpenAIChatRequest, type OpenAIResponsesRequest } from '../src/index.js';
import { assistant, commitOf, summary, system, tool, user } from './support/items.js';

// Type-level conformance: `tsc -p tsconfig.json` (root) checks these assignments without casts.
const commit = commitOf([
  system('s', 'rules', { tokens: 2000 }),
  summary('sm', 'so far'),
  user('u1', 'list files'),
  assistant('a1', 'sure'),
  tool('t1', 'bash', '{"cmd":"ls"}', 'a.txt', { isError: false }),
  tool('t2', 'bash', '{"cmd":"false"}', 'exit 1', { isError: true }),
  user('u2', 'thanks'),
]);
const tools = [{ name: 'bash', description: 'Run a command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }];

const chat: ChatCompletionCreateParamsNonStreaming = render(commit, { provider: 'openai-chat', tools });
const responses: ResponseCreateParamsNonStreaming = render(commit, { provider: 'openai-responses', tools });
const anthropic: MessageCreateParamsNonStreaming = render(commit, { provider: 'anthropic', tools });
const developer: ChatCompletionCreateParamsNonStreaming = render(commit, { provider: 'openai-chat', systemRole: 'developer' });
const view: string = render(commit, { provider: 'text' });

// The SDK types have teeth: shapes the APIs reject do not type-check.
// @ts-expect-error Chat Completions has no 'robot' role
const badRole: ChatCompletionCreateParamsNonStreaming = { model: 'm', messages: [{ role: 'robot', content: 'x' }] };
// @ts-expect-error Messages requires max_tokens
const noMaxTokens: MessageCreateParamsNonStreaming = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
// @ts-expect-error a text view is not a request body
const textAsBody: MessageCreateParamsNonStreaming = view;
void [badRole, noMaxTokens, textAsBody];

describe('SDK request types', () => {
  it('types each provider output precisely', () => {
    expectTypeOf(render(commit, { provider: 'openai-chat' })).toEqualTypeOf<OpenAIChatRequest>();
    expectTypeOf(render(commit, { provider: 'openai-responses' })).toEqualTypeOf<OpenAIResponsesRequest>();
    expectTypeOf(render(commit, { provider: 'anthropic' })).toEqualTypeOf<AnthropicRequest>();
    expectTypeOf(render(commit, { provider: 'text' })).toEqualTypeOf<string>();
    expectTypeOf<OpenAIChatRequest>().toExtend<ChatCompletionCreateParamsNonStreaming>();
    expectTypeOf<OpenAIResponsesRequest>().toExtend<ResponseCreateParamsNonStreaming>();
    expectTypeOf<AnthropicRequest>().toExtend<MessageCreateParamsNonStreaming>();
  });

  it('produces bodies that also pass the protocol validator', () => {
    expect(validateRequest('openai-chat', chat)).toEqual([]);
    expect(validateRequest('openai-chat', developer)).toEqual([]);
    expect(validateRequest('openai-responses', responses)).toEqual([]);
    expect(validateRequest('anthropic', anthropic)).toEqual([]);
    expect(validateRequest('text', view)).toEqual([]);
    expect(developer.messages[0]).toEqual({ role: 'developer', content: 'rules' });
  });
});
