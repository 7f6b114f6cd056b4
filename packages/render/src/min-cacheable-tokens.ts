/**
 * The minimum cacheable prompt length of an Anthropic model, in tokens: a `cache_control` breakpoint on a
 * shorter prefix is ignored by the API. Values from Anthropic's prompt-caching documentation
 * (https://docs.claude.com/en/docs/build-with-claude/prompt-caching, "Cache limitations"): 4,096 for
 * Claude Opus 4.5/4.6 and Haiku 4.5; 2,048 for Haiku 3 and 3.5; 1,024 for every other model (Sonnet
 * 3.7/4/4.5/4.6, Opus 4/4.1 and unknown models).
 *
 * @param model - Model name, with or without the `anthropic:` prefix, e.g. `claude-sonnet-4-5`.
 * @returns The minimum in tokens.
 * @example
 * ```ts
 * minCacheableTokens('anthropic:claude-3-5-haiku-latest'); // 2048
 * minCacheableTokens('claude-sonnet-4-5'); // 1024
 * ```
 */
export function minCacheableTokens(model: string): number {
  const name = model.toLowerCase();
  if (/opus-4-[56]|haiku-4-5/.test(name)) return 4096;
  if (name.includes('haiku')) return 2048;
  return 1024;
}
