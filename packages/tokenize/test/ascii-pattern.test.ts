// The ASCII split is an optimized path: on text without a character above U+007F it must split exactly as the plain one.
import fc from 'fast-check';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { asciiPattern } from '../src/ascii-pattern.js';
import { loadCorpusTexts } from './corpus.js';

const pieces = (pattern: RegExp, text: string): string[] => {
  const out: string[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) out.push(m[0]);
  return out;
};
const ascii = (text: string): boolean => !/[^\x00-\x7f]/u.test(text);

describe.each([
  ['o200k_base', o200k.pat_str],
  ['cl100k_base', cl100k.pat_str],
] as const)('%s: the ASCII split', (_name, pat) => {
  const plain = new RegExp(pat, 'gu');
  const narrowed = asciiPattern(pat);
  const fast = new RegExp(narrowed ?? '', 'g');

  it('exists, with no property class left', () => {
    expect(narrowed).toBeDefined();
    expect(narrowed).not.toMatch(/\\[pP]/u);
  });

  it('splits every ASCII text of the corpus as the plain split does', () => {
    const texts = loadCorpusTexts().map((t) => t.text).filter(ascii);
    expect(texts.length).toBeGreaterThan(3000);
    for (const text of texts) expect(pieces(fast, text)).toEqual(pieces(plain, text));
  });

  it('splits arbitrary ASCII text as the plain split does (property)', () => {
    const alphabet = fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', '\v', '\f', 'a', 'Z', 'Ab', 'aB', '9', '123', '4567', '.', ',', "'", "'s", "'LL", "'Re", '-', '_', '/', '\\', '"', '{', '}', ':', '<|endoftext|>', 'the', 'ing', 'ID_42');
    const asciiChar = fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.oneof(fc.array(asciiChar, { maxLength: 200 }).map((a) => a.join('')), fc.array(alphabet, { maxLength: 200 }).map((a) => a.join(''))), (text) => {
        expect(pieces(fast, text)).toEqual(pieces(plain, text));
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});

it('leaves a pattern with a class it does not know to the plain split', () => {
  expect(asciiPattern('\\p{Greek}+|\\s+')).toBeUndefined();
  expect(asciiPattern('\\P{L}+')).toBeUndefined();
  expect(asciiPattern('\\p{N}{1,3}|\\s+')).toBe('[0-9]{1,3}|\\s+');
});
