import type { ContextItem } from '@ctxgit/rules';

/** Default of `maxPinnedShare`: pinned items may hold at most this share of the history budget. */
export const DEFAULT_MAX_PINNED_SHARE = 0.25;

/** Tokens of the visible pinned items of a list. */
export function pinnedTokens(items: Iterable<ContextItem>): number {
  let sum = 0;
  for (const it of items) if (it.pinned === true && it.state !== 'summarized') sum += it.tokens;
  return sum;
}

/** The pinned-mass cap of a session, tokens. */
export function pinCapTokens(historyBudget: number, share: number | undefined): number {
  return Math.floor(historyBudget * (share ?? DEFAULT_MAX_PINNED_SHARE));
}
