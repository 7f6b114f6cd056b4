// The model call, through the official SDKs: the body is exactly what @ctxgit/render produced for the commit.
import Anthropic from '@anthropic-ai/sdk';
import type { AnthropicRequest, OpenAIChatRequest } from '@ctxgit/render';
import OpenAI from 'openai';

/** What the provider answered: the reply text and the input usage it reported (tokens). */
export interface ModelReply {
  readonly text: string;
  readonly usage: { readonly inputTokens: number; readonly cacheReadTokens: number; readonly cacheWriteTokens: number };
}

/** A provider the server can call with a rendered commit. */
export type ModelClient =
  | { readonly provider: 'openai-chat'; complete(body: OpenAIChatRequest): Promise<ModelReply> }
  | { readonly provider: 'anthropic'; complete(body: AnthropicRequest): Promise<ModelReply> };

/** Connection settings of a client; `baseURL` points the SDK at another server (the tests' fake provider). */
export interface ClientOptions {
  readonly apiKey: string;
  readonly baseURL?: string;
  /** SDK retries on 408/409/429/5xx. @defaultValue 2 (the SDKs' default) */
  readonly maxRetries?: number;
}

/** OpenAI Chat Completions through the `openai` SDK. */
export function openaiClient(opts: ClientOptions): ModelClient {
  const client = new OpenAI({ apiKey: opts.apiKey, ...(opts.baseURL === undefined ? {} : { baseURL: opts.baseURL }), ...(opts.maxRetries === undefined ? {} : { maxRetries: opts.maxRetries }) });
  return {
    provider: 'openai-chat',
    async complete(body) {
      const res = await client.chat.completions.create(body);
      const cached = res.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      return {
        text: res.choices[0]?.message.content ?? '',
        usage: { inputTokens: (res.usage?.prompt_tokens ?? 0) - cached, cacheReadTokens: cached, cacheWriteTokens: 0 },
      };
    },
  };
}

/** Anthropic Messages through the `@anthropic-ai/sdk` SDK. */
export function anthropicClient(opts: ClientOptions): ModelClient {
  const client = new Anthropic({ apiKey: opts.apiKey, ...(opts.baseURL === undefined ? {} : { baseURL: opts.baseURL }), ...(opts.maxRetries === undefined ? {} : { maxRetries: opts.maxRetries }) });
  return {
    provider: 'anthropic',
    async complete(body) {
      const res = await client.messages.create(body);
      const text = res.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      return {
        text,
        usage: { inputTokens: res.usage.input_tokens, cacheReadTokens: res.usage.cache_read_input_tokens ?? 0, cacheWriteTokens: res.usage.cache_creation_input_tokens ?? 0 },
      };
    },
  };
}
