import { createHash } from 'node:crypto';
import type { CachePricing } from './pricing.js';

/** One rendered unit of a request (an item's messages) as a positional cache sees it. */
export interface CacheSegment {
  /** Content digest of the rendered unit: equal keys mean byte-identical renders. */
  readonly key: string;
  readonly tokens: number;
}

/** One request of a conversation, as the price model needs it. */
export interface RequestShape {
  readonly segments: readonly CacheSegment[];
  /** Tokens after the last segment (the per-request overhead), never cached. */
  readonly trailingTokens: number;
  /** Segment counts after which an explicit cache breakpoint sits (used in `breakpoints` mode). */
  readonly breakpoints: readonly number[];
  /** When the request was sent, in ms; `null` when the transcript has no timestamps (requests back to back). */
  readonly at: number | null;
}

/** What one request is billed, in tokens and in base-input-token units. */
export interface RequestBill {
  readonly tokens: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly uncached: number;
  /** `uncached + cacheWrite * writeMultiplier + cacheRead * readMultiplier`. */
  readonly units: number;
}

interface Entry {
  expiresAt: number;
}

function prefixKeys(segments: readonly CacheSegment[]): { keys: string[]; tokens: number[] } {
  const keys: string[] = [];
  const tokens: number[] = [];
  let key = '';
  let sum = 0;
  for (const segment of segments) {
    key = createHash('sha256').update(key).update('\0').update(segment.key).digest('hex');
    sum += segment.tokens;
    keys.push(key);
    tokens.push(sum);
  }
  return { keys, tokens };
}

function roundHit(tokens: number, pricing: CachePricing): number {
  if (tokens < pricing.minCacheableTokens) return 0;
  const step = pricing.incrementTokens;
  return pricing.minCacheableTokens + Math.floor((tokens - pricing.minCacheableTokens) / step) * step;
}

/**
 * Bills the requests of one conversation, in order, under a prefix-cache price model.
 *
 * @remarks
 * The cache is positional and keyed by the exact rendered prefix at segment boundaries. A request reads the
 * longest cached prefix that is still alive (lifetime `ttlMs`, refreshed on every hit; without timestamps
 * every entry stays alive). In `breakpoints` mode (Anthropic) only prefixes ending at one of the request's
 * breakpoints and at least `minCacheableTokens` long are written, and the tokens between the hit and the last
 * written breakpoint are billed as cache writes; in `automatic` mode (OpenAI) every prefix is cached for free
 * and a hit is rounded down to `minCacheableTokens + k * incrementTokens`.
 * @example
 * ```ts
 * const bills = priceConversation([shapeA, shapeB], ANTHROPIC_SONNET_4_5);
 * bills[1].cacheRead; // tokens of shapeA that shapeB repeats byte for byte
 * ```
 */
export function priceConversation(requests: readonly RequestShape[], pricing: CachePricing): RequestBill[] {
  const cache = new Map<string, Entry>();
  const bills: RequestBill[] = [];
  for (const request of requests) {
    const { keys, tokens } = prefixKeys(request.segments);
    const alive = (entry: Entry | undefined): entry is Entry => entry !== undefined && (request.at === null || request.at <= entry.expiresAt);
    const expiresAt = request.at === null ? Number.POSITIVE_INFINITY : request.at + pricing.ttlMs;
    let hit = 0;
    for (let k = keys.length; k >= 1; k--) {
      const entry = cache.get(keys[k - 1] as string);
      if (alive(entry)) {
        hit = k;
        entry.expiresAt = expiresAt;
        break;
      }
    }
    const hitTokens = hit === 0 ? 0 : (tokens[hit - 1] as number);
    const cacheRead = pricing.mode === 'automatic' ? roundHit(hitTokens, pricing) : hitTokens;
    let written = 0;
    if (pricing.mode === 'breakpoints') {
      for (const point of request.breakpoints) {
        if (point < 1 || point > keys.length) continue;
        const prefix = tokens[point - 1] as number;
        if (prefix < pricing.minCacheableTokens) continue;
        cache.set(keys[point - 1] as string, { expiresAt });
        if (point > hit) written = Math.max(written, prefix - cacheRead);
      }
    } else {
      keys.forEach((key) => cache.set(key, { expiresAt }));
    }
    const total = (tokens[tokens.length - 1] ?? 0) + request.trailingTokens;
    const cacheWrite = pricing.mode === 'breakpoints' ? written : 0;
    const uncached = total - cacheRead - cacheWrite;
    bills.push({
      tokens: total,
      cacheRead,
      cacheWrite,
      uncached,
      units: uncached + cacheWrite * pricing.writeMultiplier + cacheRead * pricing.readMultiplier,
    });
  }
  return bills;
}
