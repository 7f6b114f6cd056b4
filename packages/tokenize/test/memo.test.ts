import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionError, LoneSurrogateError, TextTooLongError, createMemoTokenizer, loadTokenizer } from '../src/index.js';
import type { Tokenizer } from '../src/index.js';

let tok: Tokenizer;
beforeAll(async () => {
  tok = await loadTokenizer('o200k_base');
});

describe('createMemoTokenizer', () => {
  it('serves repeated texts from the cache and reports stats', () => {
    const memo = createMemoTokenizer(tok, { maxEntries: 2 });
    expect(memo).toMatchObject({ encoding: 'o200k_base', estimated: false, inner: tok });
    expect(memo.count('hello world')).toBe(2);
    expect(memo.count('hello world')).toBe(2);
    expect(memo.stats()).toEqual({ hits: 1, misses: 1, evictions: 0, size: 1, maxEntries: 2 });
    memo.count('a');
    memo.count('hello world'); // refreshes it: 'a' is now the oldest
    memo.count('b'); // evicts 'a'
    expect(memo.stats()).toEqual({ hits: 2, misses: 3, evictions: 1, size: 2, maxEntries: 2 });
    memo.count('a');
    expect(memo.stats().misses).toBe(4);
    memo.clear();
    expect(memo.stats()).toEqual({ hits: 0, misses: 0, evictions: 0, size: 0, maxEntries: 2 });
  });

  it('keys long texts by length and hash, never sharing counts between different texts', () => {
    const hashed: string[] = [];
    const memo = createMemoTokenizer(tok, { maxKeyLength: 8, hash: (t) => (hashed.push(t), 'same') });
    const a = 'aaaa bbbb cccc';
    const b = 'x'.repeat(a.length + 1);
    expect(memo.count(a)).toBe(tok.count(a));
    expect(memo.count(b)).toBe(tok.count(b));
    expect(memo.stats().misses).toBe(2);
    expect(hashed).toEqual([a, b]);
    expect(() => memo.count('\uD800' + `${a.length}:same`)).toThrow(LoneSurrogateError);
  });

  it('keeps the input checks', () => {
    const memo = createMemoTokenizer(tok);
    expect(() => memo.count(7 as unknown as string)).toThrow(/string/);
    expect(() => memo.count('a\uDFFF')).toThrow(LoneSurrogateError);
    expect(() => memo.count('a'.repeat(16 * 1024 * 1024 + 1))).toThrow(TextTooLongError);
    expect(() => createMemoTokenizer(tok, { maxEntries: 0 })).toThrow(InvalidOptionError);
    expect(() => createMemoTokenizer(tok, { maxKeyLength: 1.5 })).toThrow(InvalidOptionError);
  });

  it('gives the same counts as the direct tokenizer (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom('a', 'b', 'long '.repeat(50))), { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (texts, maxEntries) => {
        const memo = createMemoTokenizer(tok, { maxEntries, maxKeyLength: 16 });
        for (const text of [...texts, ...texts]) expect(memo.count(text)).toBe(tok.count(text));
        const { hits, misses, size } = memo.stats();
        expect(hits + misses).toBe(texts.length * 2);
        expect(size).toBeLessThanOrEqual(maxEntries);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
