import type { ContextItem } from '@ctxgit/rules';
import { latestUserKey } from './policies/latest-user-key.js';
import type { PreparedCall } from './prepare-calls.js';
import type { CachePricing } from './pricing.js';
import type { TokenMeter } from './token-meter.js';

/**
 * A lower bound on what any policy is billed for one conversation, per price model: on every call a policy must
 * send the system items, the latest user turn and the items appended since the previous call (the newest round,
 * which no earlier request held). Whatever else it sends or drops, it pays at least: the system items and a latest
 * user turn sent before at the cache-read price (on the first call, when nothing is cached yet, the system items as
 * the newest round), the newest round as a cache write (`breakpoints` mode, once the request reaches the cacheable
 * minimum: every request carries a breakpoint at its end) or at the base price, and the request's own overhead
 * uncached. Cache lifetimes and OpenAI's 128-token steps only raise a real bill, so they are left out. What the
 * bound does not assume is recall: a policy at the floor forgets everything but the newest round.
 *
 * @returns base-input-token units per pricing id
 * @example
 * ```ts
 * costFloor(calls, meter, PRICINGS)['anthropic-sonnet-4.5']; // never above any policy's bill for these calls
 * ```
 */
export function costFloor(calls: readonly PreparedCall[], meter: TokenMeter, pricings: readonly CachePricing[]): Record<string, number> {
  const units: Record<string, number> = Object.fromEntries(pricings.map((p) => [p.id, 0]));
  calls.forEach((call, i) => {
    const fresh = new Set(call.newNodes.map((n) => n.id));
    const user = latestUserKey(call.historyItems);
    let system = 0;
    let sentBefore = 0;
    let round = 0;
    const sent: ContextItem[] = [];
    for (const item of call.historyItems) {
      const tokens = meter.itemTokens(item);
      if (item.role === 'system') system += tokens;
      else if (fresh.has(item.key)) round += tokens;
      else if (item.key === user) sentBefore += tokens;
      else continue;
      sent.push(item);
    }
    const overhead = Math.max(0, meter.requestTokens(sent) - system - sentBefore - round);
    for (const p of pricings) {
      const write = p.mode === 'breakpoints' && system + sentBefore + round >= p.minCacheableTokens ? p.writeMultiplier : 1;
      const systemPrice = i === 0 ? write : p.readMultiplier;
      units[p.id] = (units[p.id] ?? 0) + systemPrice * system + p.readMultiplier * sentBefore + write * round + overhead;
    }
  });
  return units;
}
