import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import type { Tiktoken } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenizerLoader, loadTokenizer } from '../src/index.js';
import type { EncodingName, Tokenizer } from '../src/index.js';
import { loadCorpusTexts } from './corpus.js';

const texts = loadCorpusTexts();
const SPECIALS = [
  '<|endoftext|>',
  '<|endofprompt|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  'before <|endoftext|> after',
  '<|im_start|>user\nhi<|im_end|>',
  '<|endoftext|><|endoftext|>',
  '<|endoftext',
  'x<|endofprompt|>y',
];

describe.each(['o200k_base', 'cl100k_base'] as const)('%s equals the tiktoken WASM oracle', (encoding: EncodingName) => {
  let ours: Tokenizer;
  let oracle: Tiktoken;
  const expected = (text: string): number => oracle.encode(text, [], []).length;

  beforeAll(async () => {
    ours = await loadTokenizer(encoding);
    oracle = get_encoding(encoding);
  });
  afterAll(() => oracle.free());

  it('on every message text of the corpus', () => {
    expect(texts.length).toBeGreaterThan(4000);
    const mismatches = texts.filter((t) => ours.count(t.text) !== expected(t.text)).map((t) => t.source);
    expect(mismatches).toEqual([]);
    const total = texts.reduce((sum, t) => sum + ours.count(t.text), 0);
    expect(total).toBe(texts.reduce((sum, t) => sum + expected(t.text), 0));
  });

  it('on special-token strings, counted as plain text', () => {
    for (const text of SPECIALS) expect(ours.count(text)).toBe(expected(text));
    expect(ours.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('on long runs that take the heap merge path', () => {
    for (const text of [' '.repeat(5000), '-'.repeat(3000) + 'a', 'ab'.repeat(2000), '\n'.repeat(700) + ' x', '日本語'.repeat(300), '😀'.repeat(400)]) {
      expect(ours.count(text)).toBe(expected(text));
    }
  });

  it('counts a very long single piece without stalling (O(n log n) merge)', () => {
    expect(ours.count(' '.repeat(20_000))).toBe(expected(' '.repeat(20_000)));
    expect(expected(' '.repeat(20_000))).toBe(Math.ceil(20_000 / 128));
    expect(ours.count(' '.repeat(1_000_000))).toBe(Math.ceil(1_000_000 / 128));
  });

  it('on arbitrary well-formed strings (property)', () => {
    const alphabet = fc.constantFrom(' ', '  ', '\n', '\t', 'a', 'Z', 'é', '9', '.', "'s", '-', '日', '😀', '<|endoftext|>', 'the', 'ing');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.array(alphabet, { maxLength: 300 }).map((a) => a.join(''))), (text) => {
        expect(ours.count(text)).toBe(expected(text));
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});

describe('lazy loading', () => {
  it('imports only the requested rank module; a loader builds each encoding once and keeps it', async () => {
    const asked: string[] = [];
    const tok = await loadTokenizer('cl100k_base', {
      importRanks: async (encoding) => {
        asked.push(encoding);
        return (await import('js-tiktoken/ranks/cl100k_base')).default;
      },
    });
    expect(asked).toEqual(['cl100k_base']);
    expect(tok.count('hello world')).toBe(2);
    const loader = createTokenizerLoader({
      importRanks: async (encoding) => {
        asked.push(encoding);
        return (await import('js-tiktoken/ranks/o200k_base')).default;
      },
    });
    const [a, b] = await Promise.all([loader.load('o200k_base'), loader.load('o200k_base')]);
    expect(a).toBe(b);
    expect(await loader.load('o200k_base')).toBe(a);
    expect(asked).toEqual(['cl100k_base', 'o200k_base']);
    expect(await loadTokenizer('o200k_base')).not.toBe(a); // nothing is kept in module scope
  });
});

describe('the split', () => {
  it('runs the one compiled pattern, never a clone (matchAll clones it, and V8 compiles a clone of o200k again after GC)', async () => {
    const tok = await loadTokenizer('o200k_base');
    const matchAll = vi.spyOn(String.prototype, 'matchAll');
    try {
      expect(tok.count('cancel_reservation({"reservation_id":"NQNU5R"}) … (775 chars)')).toBeGreaterThan(10);
      expect(matchAll).not.toHaveBeenCalled();
    } finally {
      matchAll.mockRestore();
    }
  });

  it('steps past an empty match, as matchAll would, with a pattern that allows one', async () => {
    const tok = await loadTokenizer('o200k_base', { importRanks: async () => ({ pat_str: 'a*', bpe_ranks: '', special_tokens: {} }) });
    // 'b' and '😀' match empty and count nothing; 'aa' is one piece of two bytes with no merges
    expect(tok.count('baa😀a')).toBe(3);
  });
});
