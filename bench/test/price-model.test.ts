import { describe, expect, it } from 'vitest';
import { priceConversation } from '../src/eval/price-conversation.js';
import type { RequestShape } from '../src/eval/price-conversation.js';
import { ANTHROPIC_SONNET_4_5, OPENAI_GPT_4O, OPENAI_GPT_4_1 } from '../src/eval/pricing.js';

const seg = (key: string, tokens: number) => ({ key, tokens });
const req = (segments: ReturnType<typeof seg>[], at: number | null = null, systemEnd = 1): RequestShape => ({
  segments,
  trailingTokens: 3,
  breakpoints: [systemEnd, segments.length],
  at,
});

const r1 = req([seg('sys', 1200), seg('u1', 100)]);
const r2 = req([seg('sys', 1200), seg('u1', 100), seg('a1', 50), seg('u2', 40)]);
const r3 = req([seg('sys', 1200), seg('a1b', 60)]);

describe('priceConversation, Anthropic (breakpoints, write 1.25x, read 0.1x, 1,024-token minimum)', () => {
  it('bills the first request as a cache write of everything up to its last breakpoint', () => {
    expect(priceConversation([r1], ANTHROPIC_SONNET_4_5)).toEqual([{ tokens: 1303, cacheRead: 0, cacheWrite: 1300, uncached: 3, units: 3 + 1300 * 1.25 }]);
  });

  it('reads the previous request and writes only what was appended', () => {
    const [, second] = priceConversation([r1, r2], ANTHROPIC_SONNET_4_5);
    // read 1300 (0.1x), write 90 (1.25x), overhead 3 uncached
    expect(second).toEqual({ tokens: 1393, cacheRead: 1300, cacheWrite: 90, uncached: 3, units: 245.5 });
  });

  it('falls back to the system breakpoint when an earlier message changed', () => {
    const [, , third] = priceConversation([r1, r2, r3], ANTHROPIC_SONNET_4_5);
    expect(third).toEqual({ tokens: 1263, cacheRead: 1200, cacheWrite: 60, uncached: 3, units: 3 + 60 * 1.25 + 120 });
  });

  it('never caches a prefix under the minimum', () => {
    const small = req([seg('s', 500), seg('u', 400)]);
    expect(priceConversation([small, small], ANTHROPIC_SONNET_4_5)).toEqual([
      { tokens: 903, cacheRead: 0, cacheWrite: 0, uncached: 903, units: 903 },
      { tokens: 903, cacheRead: 0, cacheWrite: 0, uncached: 903, units: 903 },
    ]);
  });

  it('respects the 5-minute lifetime, refreshed on each hit', () => {
    const minute = 60_000;
    const at = (t: number, r: RequestShape): RequestShape => ({ ...r, at: t });
    const bills = priceConversation([at(0, r1), at(4 * minute, r1), at(8 * minute, r1), at(14 * minute, r1)], ANTHROPIC_SONNET_4_5);
    expect(bills.map((b) => b.cacheRead)).toEqual([0, 1300, 1300, 0]);
    expect(bills.map((b) => b.cacheWrite)).toEqual([1300, 0, 0, 1300]);
  });
});

describe('priceConversation, OpenAI (automatic, no write premium, hits from 1,024 in 128-token steps)', () => {
  it('rounds a hit down to 1,024 + 128k and bills the rest as uncached input', () => {
    expect(priceConversation([r1, r2], OPENAI_GPT_4_1)).toEqual([
      { tokens: 1303, cacheRead: 0, cacheWrite: 0, uncached: 1303, units: 1303 },
      // shared prefix 1300 -> 1024 + 2 * 128 = 1280 cached at 0.25x
      { tokens: 1393, cacheRead: 1280, cacheWrite: 0, uncached: 113, units: 113 + 320 },
    ]);
  });

  it('caches every prefix, not only breakpoints', () => {
    const [, , third] = priceConversation([r1, r2, r3], OPENAI_GPT_4O);
    // r3 shares only `sys` (1200 tokens) -> 1024 + 1 * 128 = 1152 at 0.5x
    expect(third).toEqual({ tokens: 1263, cacheRead: 1152, cacheWrite: 0, uncached: 111, units: 111 + 576 });
  });
});
