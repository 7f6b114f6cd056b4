import { InvalidUsageError } from './errors.js';
import { checkCount } from './occupancy-state.js';
import type { OccupancyState } from './occupancy-state.js';

/**
 * Input usage a provider reported for one call, in tokens. The three parts are disjoint and summed:
 * OpenAI — `inputTokens` = `prompt_tokens − prompt_tokens_details.cached_tokens` (Responses: `input_tokens − input_tokens_details.cached_tokens`),
 * `cacheReadTokens` = the cached tokens; Anthropic — `inputTokens` = `input_tokens`, `cacheReadTokens` =
 * `cache_read_input_tokens`, `cacheWriteTokens` = `cache_creation_input_tokens`.
 */
export interface Usage {
  /** Head whose render was sent in that call. */
  readonly head: string;
  /** Uncached input tokens. */
  readonly inputTokens: number;
  /** Input tokens read from the provider's prompt cache. @defaultValue 0 */
  readonly cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache (Anthropic). @defaultValue 0 */
  readonly cacheWriteTokens?: number;
}

/**
 * Records provider-reported usage: returns a new state whose measurement belongs to `usage.head`.
 *
 * @remarks Pure: `state` is not changed. The measurement replaces any earlier one (it describes a different head or a
 * newer call on the same head).
 *
 * @param state - the current state
 * @param usage - the reported usage (tokens)
 * @returns the new state
 * @throws {@link InvalidUsageError} for an empty head or a count that is not a non-negative integer
 * @example
 * ```ts
 * const s1 = recordUsage(createOccupancyState({ window: 200_000 }), { head: 'c1', inputTokens: 1_200, cacheReadTokens: 40_000 });
 * s1.measurement; // { head: 'c1', total: 41200 }
 * ```
 */
export function recordUsage(state: OccupancyState, usage: Usage): OccupancyState {
  if (typeof usage.head !== 'string' || usage.head === '') throw new InvalidUsageError('head', usage.head, 'a non-empty string');
  const total =
    checkCount('inputTokens', usage.inputTokens) +
    checkCount('cacheReadTokens', usage.cacheReadTokens ?? 0) +
    checkCount('cacheWriteTokens', usage.cacheWriteTokens ?? 0);
  return Object.freeze({ window: state.window, measurement: Object.freeze({ head: usage.head, total }) });
}
