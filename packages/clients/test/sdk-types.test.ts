// Type-level: the wrapped clients take the SDKs' own request types and return their response types plus the report;
// `tsc -p tsconfig.json` (root) checks these, so a drift of either SDK breaks the type-check.
import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicRequest, OpenAIChatRequest, OpenAIResponsesRequest } from '@ctxgit/render';
import type OpenAI from 'openai';
import { describe, expectTypeOf, it } from 'vitest';
import { wrapAnthropic, wrapOpenAI } from '../src/index.js';
import type { CtxgitAnthropic, CtxgitCallReport, CtxgitOpenAI } from '../src/index.js';

type OpenAICreate = CtxgitOpenAI['chat']['completions']['create'];
type AnthropicCreate = CtxgitAnthropic['messages']['create'];

describe('SDK types of the wrapped clients', () => {
  it('take the SDK clients and their non-streaming request types', () => {
    expectTypeOf(wrapOpenAI).parameter(0).toEqualTypeOf<OpenAI>();
    expectTypeOf(wrapAnthropic).parameter(0).toEqualTypeOf<Anthropic>();
    expectTypeOf<Parameters<OpenAICreate>[0]>().toEqualTypeOf<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming>();
    expectTypeOf<Parameters<AnthropicCreate>[0]>().toEqualTypeOf<Anthropic.MessageCreateParamsNonStreaming>();
  });

  it('return the SDK response with the ctxgit report', () => {
    expectTypeOf<Awaited<ReturnType<OpenAICreate>>>().toExtend<OpenAI.Chat.ChatCompletion>();
    expectTypeOf<Awaited<ReturnType<AnthropicCreate>>>().toExtend<Anthropic.Message>();
    expectTypeOf<Awaited<ReturnType<OpenAICreate>>['ctxgit']>().toEqualTypeOf<CtxgitCallReport>();
    expectTypeOf<Awaited<ReturnType<AnthropicCreate>>['ctxgit']>().toEqualTypeOf<CtxgitCallReport>();
  });

  it('render bodies assignable to the SDK request types, by their namespace names', () => {
    expectTypeOf<OpenAIChatRequest>().toExtend<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming>();
    expectTypeOf<OpenAIResponsesRequest>().toExtend<OpenAI.Responses.ResponseCreateParamsNonStreaming>();
    expectTypeOf<AnthropicRequest>().toExtend<Anthropic.MessageCreateParamsNonStreaming>();
  });
});
