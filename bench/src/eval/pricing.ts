/**
 * The published prefix-cache prices the evaluation bills with. Every figure is a ratio to the model's base
 * input price, as the providers publish them; `usdPerMTok` turns units into dollars for one named model.
 */

/** How a provider decides what is cached. */
export type CacheMode =
  /** Anthropic: only the prefixes ending at an explicit `cache_control` breakpoint are written (and billed as writes). */
  | 'breakpoints'
  /** OpenAI: every prefix is cached automatically, hits are counted from 1,024 tokens in 128-token steps, writes are free. */
  | 'automatic';

/** One provider's prefix-cache price model. Multipliers are relative to the base input price. */
export interface CachePricing {
  /** Short id used in the JSON, e.g. `anthropic-sonnet-4.5`. */
  readonly id: string;
  readonly label: string;
  readonly mode: CacheMode;
  /** Price of a token written to the cache, in base-input units (Anthropic 5-minute cache: 1.25). */
  readonly writeMultiplier: number;
  /** Price of a token read from the cache, in base-input units. */
  readonly readMultiplier: number;
  /** Cache lifetime in milliseconds, refreshed on every hit. */
  readonly ttlMs: number;
  /** Shortest prefix, in tokens, that can be cached. */
  readonly minCacheableTokens: number;
  /** Hits beyond the minimum are counted in steps of this many tokens (OpenAI: 128; Anthropic: 1). */
  readonly incrementTokens: number;
  /** Base input price in USD per million tokens, for the named model. */
  readonly usdPerMTok: number;
  /** Where the figures come from. */
  readonly sources: readonly string[];
}

const FIVE_MINUTES = 5 * 60 * 1000;

/** Anthropic Claude Sonnet 4.5: $3 / MTok input, 5-minute cache writes 1.25x, cache reads 0.1x, 1,024-token minimum. */
export const ANTHROPIC_SONNET_4_5: CachePricing = {
  id: 'anthropic-sonnet-4.5',
  label: 'Anthropic Claude Sonnet 4.5 ($3/MTok; write 1.25x, read 0.1x, 5 min)',
  mode: 'breakpoints',
  writeMultiplier: 1.25,
  readMultiplier: 0.1,
  ttlMs: FIVE_MINUTES,
  minCacheableTokens: 1024,
  incrementTokens: 1,
  usdPerMTok: 3,
  sources: [
    'https://docs.claude.com/en/docs/build-with-claude/prompt-caching (pricing: 5-minute cache writes 1.25x base input, cache hits 0.1x; lifetime refreshed on each use; minimum 1,024 tokens for Sonnet/Opus)',
    'https://www.anthropic.com/pricing (Claude Sonnet 4.5: $3 / MTok input)',
  ],
};

/** OpenAI gpt-4.1: $2.00 / MTok input, cached input $0.50 (0.25x), no write premium. */
export const OPENAI_GPT_4_1: CachePricing = {
  id: 'openai-gpt-4.1',
  label: 'OpenAI gpt-4.1 ($2.00/MTok; cached 0.25x, no write premium)',
  mode: 'automatic',
  writeMultiplier: 1,
  readMultiplier: 0.25,
  ttlMs: FIVE_MINUTES,
  minCacheableTokens: 1024,
  incrementTokens: 128,
  usdPerMTok: 2,
  sources: [
    'https://platform.openai.com/docs/pricing (gpt-4.1: input $2.00, cached input $0.50 per MTok; gpt-4o: input $2.50, cached input $1.25)',
    'https://openai.com/index/api-prompt-caching/ (automatic on prompts over 1,024 tokens, hits in 128-token increments, caches cleared after 5-10 minutes of inactivity)',
  ],
};

/** OpenAI gpt-4o: $2.50 / MTok input, cached input $1.25 (0.5x), no write premium. */
export const OPENAI_GPT_4O: CachePricing = {
  ...OPENAI_GPT_4_1,
  id: 'openai-gpt-4o',
  label: 'OpenAI gpt-4o ($2.50/MTok; cached 0.5x, no write premium)',
  readMultiplier: 0.5,
  usdPerMTok: 2.5,
};

/** The price models every policy is billed under, in report order. */
export const PRICINGS: readonly CachePricing[] = [ANTHROPIC_SONNET_4_5, OPENAI_GPT_4_1, OPENAI_GPT_4O];
