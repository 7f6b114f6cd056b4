import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextItem } from '@ctxgit/rules';
import { render, stablePrefix, type ProviderName } from '../src/index.js';
import { build, settled } from './support/prefix.js';
import { itemsArb } from './support/arbitraries.js';
import { assistant, commitOf, system, tool, user } from './support/items.js';

/** Later items: no system items (system rules come first), attach runs of their own (an attach expands once). */
const laterArb = itemsArb.map((items) =>
  items.map((item, index): ContextItem => {
    const renamed = { ...item, key: `later${index}`, ...(item.attachedFrom === undefined ? {} : { attachedFrom: `later_${item.attachedFrom}` }) };
    return item.role === 'system' ? { ...renamed, role: 'user' } : renamed;
  }),
);

const PROVIDERS: ProviderName[] = ['openai-chat', 'openai-responses', 'anthropic', 'text'];

describe('stablePrefix', () => {
  it('counts identical leading messages and common bytes', () => {
    const a = render(commitOf([system('s', 'rules'), user('u1', 'hi')]), { provider: 'openai-chat' });
    const b = render(commitOf([system('s', 'rules'), user('u1', 'hi'), assistant('a1', 'yo'), user('u2', 'more')]), { provider: 'openai-chat' });
    const shared = stablePrefix(a, b);
    expect(shared.messages).toBe(2);
    expect(shared.totalMessages).toEqual([2, 4]);
    expect(shared.bytes).toBe(shared.totalBytes[0]);
    expect(shared.totalBytes[1]).toBeGreaterThan(shared.totalBytes[0]);
    expect(stablePrefix(a, a)).toEqual({ messages: 2, bytes: shared.totalBytes[0], totalMessages: [2, 2], totalBytes: [shared.totalBytes[0], shared.totalBytes[0]] });
  });

  it('ignores moved cache_control breakpoints but not changed system or tools', () => {
    const long = { tokens: 2000 };
    const a = render(commitOf([system('s', 'rules', long), user('u1', 'hi', long)]), { provider: 'anthropic' });
    const b = render(commitOf([system('s', 'rules', long), user('u1', 'hi', long), assistant('a1', 'yo', long), user('u2', 'more', long)]), { provider: 'anthropic' });
    expect(JSON.stringify(a.messages[0])).toContain('cache_control');
    expect(stablePrefix(a, b).messages).toBe(1);
    const c = render(commitOf([system('s', 'other rules', long), user('u1', 'hi', long)]), { provider: 'anthropic' });
    expect(stablePrefix(a, c).messages).toBe(0);
    const d = render(commitOf([system('s', 'rules', long), tool('t', 'bash', '{}', 'x'), user('u1', 'hi', long)]), { provider: 'anthropic' });
    expect(stablePrefix(a, d).messages).toBe(0);
  });

  it('counts multi-byte characters in bytes', () => {
    const a = render(commitOf([user('u1', 'é')]), { provider: 'text' });
    const b = render(commitOf([user('u1', 'éa')]), { provider: 'text' });
    expect(stablePrefix(a, b).bytes).toBe(new TextEncoder().encode(a).length);
    expect(stablePrefix(a, b).messages).toBe(0);
  });

  describe.each(PROVIDERS)('two consecutive commits: %s', (provider) => {
    it('keep the earlier render as a byte-identical prefix up to the first changed item', () => {
      fc.assert(
        fc.property(itemsArb, laterArb, laterArb, (prefix, before, after) => {
          const earlier = build(provider, [...prefix, ...before]);
          const later = build(provider, [...prefix, ...after]);
          const bound = settled(build(provider, prefix), prefix.length);
          const shared = stablePrefix(earlier, later);
          expect(shared.messages).toBeGreaterThanOrEqual(bound);
        }),
        { numRuns: 300 },
      );
    });

    it('keep the whole earlier render but its open tail when items are only appended', () => {
      fc.assert(
        fc.property(itemsArb, laterArb, (prefix, appended) => {
          const earlier = build(provider, prefix);
          const shared = stablePrefix(earlier, build(provider, [...prefix, ...appended]));
          expect(shared.messages).toBeGreaterThanOrEqual(settled(earlier, prefix.length));
          if (appended.length === 0) expect(shared.bytes).toBe(shared.totalBytes[0]);
        }),
        { numRuns: 300 },
      );
    });
  });
});
