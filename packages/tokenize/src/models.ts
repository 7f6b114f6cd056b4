import type { EncodingName } from './encoding.js';

/** Providers known to the model table and to {@link countRequest}. */
export type Provider = 'openai' | 'anthropic';

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
}

/** A model table: `"provider:model"` → {@link ModelInfo}. */
export type ModelTable = Readonly<Record<string, ModelInfo>>;

const openai = (window: number, maxOutput: number, encoding: EncodingName = 'o200k_base'): ModelInfo =>
  Object.freeze({ provider: 'openai', window, maxOutput, encoding });
const anthropic = (window: number, maxOutput: number): ModelInfo =>
  Object.freeze({ provider: 'anthropic', window, maxOutput, encoding: 'estimate' });

/**
 * The built-in model table, from the providers' model pages (standard tiers: beta long-context windows such as
 * Claude's 1 M-token header are not assumed). Callers extend or replace entries through `models` in
 * {@link resolveModel}; this object is frozen.
 */
export const DEFAULT_MODELS: ModelTable = Object.freeze({
  'openai:gpt-3.5-turbo': openai(16_385, 4_096, 'cl100k_base'),
  'openai:gpt-4': openai(8_192, 8_192, 'cl100k_base'),
  'openai:gpt-4-turbo': openai(128_000, 4_096, 'cl100k_base'),
  'openai:gpt-4o': openai(128_000, 16_384),
  'openai:gpt-4o-mini': openai(128_000, 16_384),
  'openai:chatgpt-4o-latest': openai(128_000, 16_384),
  'openai:gpt-4.1': openai(1_047_576, 32_768),
  'openai:gpt-4.1-mini': openai(1_047_576, 32_768),
  'openai:gpt-4.1-nano': openai(1_047_576, 32_768),
  'openai:o1': openai(200_000, 100_000),
  'openai:o3': openai(200_000, 100_000),
  'openai:o3-mini': openai(200_000, 100_000),
  'openai:o3-pro': openai(200_000, 100_000),
  'openai:o4-mini': openai(200_000, 100_000),
  'openai:gpt-5': openai(400_000, 128_000),
  'openai:gpt-5-mini': openai(400_000, 128_000),
  'openai:gpt-5-nano': openai(400_000, 128_000),
  'openai:gpt-5-chat-latest': openai(128_000, 16_384),
  'openai:gpt-5.1': openai(400_000, 128_000),
  'anthropic:claude-opus-4-5': anthropic(200_000, 64_000),
  'anthropic:claude-opus-4-1': anthropic(200_000, 32_000),
  'anthropic:claude-opus-4-0': anthropic(200_000, 32_000),
  'anthropic:claude-sonnet-4-5': anthropic(200_000, 64_000),
  'anthropic:claude-sonnet-4-0': anthropic(200_000, 64_000),
  'anthropic:claude-haiku-4-5': anthropic(200_000, 64_000),
  'anthropic:claude-3-7-sonnet': anthropic(200_000, 64_000),
  'anthropic:claude-3-5-sonnet': anthropic(200_000, 8_192),
  'anthropic:claude-3-5-haiku': anthropic(200_000, 8_192),
  'anthropic:claude-3-haiku': anthropic(200_000, 4_096),
});
