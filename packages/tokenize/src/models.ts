import type { EncodingName } from './encoding.js';

/** Providers known to the model table and to {@link countRequest}. */
export type Provider = 'openai' | 'anthropic';

/**
 * What the provider bills for a cached input token, as multiples of an uncached one: `read` a token served from the
 * prompt cache, `write` a token written to it (1 where writing costs nothing extra). No prompt caching: 1 and 1.
 */
export interface CachePrices {
  readonly read: number;
  readonly write: number;
}

/** One entry of the model table. All sizes are in tokens. */
export interface ModelInfo {
  /** Who serves the model. */
  readonly provider: Provider;
  /** Context window: input plus output tokens the model accepts in one call. */
  readonly window: number;
  /** Most output tokens one call may produce (0 when unknown). */
  readonly maxOutput: number;
  /** The model's encoding, or `estimate` when it has no public one (every Anthropic model). */
  readonly encoding: EncodingName | 'estimate';
  /** Prompt-cache prices. @defaultValue the provider's: `anthropic` read 0.1, write 1.25 (5-minute cache); `openai` read 0.5, write 1 */
  readonly cache?: CachePrices;
}

/** A model table: `"provider:model"` → {@link ModelInfo}. */
export type ModelTable = Readonly<Record<string, ModelInfo>>;

/** The cache prices of a provider's models unless their entry says otherwise. */
export const PROVIDER_CACHE_PRICES: Readonly<Record<Provider, CachePrices>> = Object.freeze({
  anthropic: Object.freeze({ read: 0.1, write: 1.25 }),
  openai: Object.freeze({ read: 0.5, write: 1 }),
});

const openai = (window: number, maxOutput: number, read: number, encoding: EncodingName = 'o200k_base'): ModelInfo =>
  Object.freeze({ provider: 'openai', window, maxOutput, encoding, cache: Object.freeze({ read, write: 1 }) });
const anthropic = (window: number, maxOutput: number, cache: CachePrices = PROVIDER_CACHE_PRICES.anthropic): ModelInfo =>
  Object.freeze({ provider: 'anthropic', window, maxOutput, encoding: 'estimate', cache });

/**
 * The built-in model table, from the providers' model and pricing pages (standard tiers: beta long-context windows
 * such as Claude's 1 M-token header are not assumed; cache prices of the 5-minute Anthropic cache, and OpenAI's cached
 * input over its input price, 1 where none is listed). Callers extend or replace entries through `models` in
 * {@link resolveModel}; this object is frozen.
 */
export const DEFAULT_MODELS: ModelTable = Object.freeze({
  'openai:gpt-3.5-turbo': openai(16_385, 4_096, 1, 'cl100k_base'),
  'openai:gpt-4': openai(8_192, 8_192, 1, 'cl100k_base'),
  'openai:gpt-4-turbo': openai(128_000, 4_096, 1, 'cl100k_base'),
  'openai:gpt-4o': openai(128_000, 16_384, 0.5),
  'openai:gpt-4o-mini': openai(128_000, 16_384, 0.5),
  'openai:chatgpt-4o-latest': openai(128_000, 16_384, 1),
  'openai:gpt-4.1': openai(1_047_576, 32_768, 0.25),
  'openai:gpt-4.1-mini': openai(1_047_576, 32_768, 0.25),
  'openai:gpt-4.1-nano': openai(1_047_576, 32_768, 0.25),
  'openai:o1': openai(200_000, 100_000, 0.5),
  'openai:o3': openai(200_000, 100_000, 0.25),
  'openai:o3-mini': openai(200_000, 100_000, 0.5),
  'openai:o3-pro': openai(200_000, 100_000, 1),
  'openai:o4-mini': openai(200_000, 100_000, 0.25),
  'openai:gpt-5': openai(400_000, 128_000, 0.1),
  'openai:gpt-5-mini': openai(400_000, 128_000, 0.1),
  'openai:gpt-5-nano': openai(400_000, 128_000, 0.1),
  'openai:gpt-5-chat-latest': openai(128_000, 16_384, 0.1),
  'openai:gpt-5.1': openai(400_000, 128_000, 0.1),
  'anthropic:claude-opus-4-5': anthropic(200_000, 64_000),
  'anthropic:claude-opus-4-1': anthropic(200_000, 32_000),
  'anthropic:claude-opus-4-0': anthropic(200_000, 32_000),
  'anthropic:claude-sonnet-4-5': anthropic(200_000, 64_000),
  'anthropic:claude-sonnet-4-0': anthropic(200_000, 64_000),
  'anthropic:claude-haiku-4-5': anthropic(200_000, 64_000),
  'anthropic:claude-3-7-sonnet': anthropic(200_000, 64_000),
  'anthropic:claude-3-5-sonnet': anthropic(200_000, 8_192),
  'anthropic:claude-3-5-haiku': anthropic(200_000, 8_192),
  // $0.25 input, $0.30 cache write, $0.03 cache read per MTok
  'anthropic:claude-3-haiku': anthropic(200_000, 4_096, Object.freeze({ read: 0.12, write: 1.2 })),
});
