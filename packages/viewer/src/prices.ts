/** Input prices in USD per million tokens, by `"provider:model"`. */
export type PriceTable = Readonly<Record<string, number>>;

/**
 * Uncached input prices (USD per million tokens) of common models, from the providers' pricing pages
 * (https://platform.openai.com/docs/pricing, https://www.anthropic.com/pricing) as of 2025. The cost chart bills each
 * call's tokens at this price; pass `prices` to {@link createViewer} for other models or prices.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'openai:gpt-4o': 2.5,
  'openai:gpt-4o-mini': 0.15,
  'openai:gpt-4.1': 2,
  'openai:gpt-4.1-mini': 0.4,
  'openai:gpt-5': 1.25,
  'openai:gpt-5-mini': 0.25,
  'anthropic:claude-opus-4-5': 5,
  'anthropic:claude-sonnet-4-5': 3,
  'anthropic:claude-haiku-4-5': 1,
});
