import { describe, expect, it } from 'vitest';
import {
  EncodingNotLoadedError,
  LoneSurrogateError,
  MAX_TEXT_LENGTH,
  NotAStringError,
  TextTooLongError,
  TokenizeError,
  UnknownEncodingError,
  createMemoTokenizer,
  estimateTokenizer,
  createTokenizerLoader,
  loadTokenizer,
} from '../src/index.js';
import type { Tokenizer, TokenizerEncoding } from '../src/index.js';

const tokenizers = async (): Promise<Tokenizer[]> => [
  await loadTokenizer('o200k_base'),
  await loadTokenizer('cl100k_base'),
  estimateTokenizer,
  createMemoTokenizer(await loadTokenizer('o200k_base')),
];

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('bad input', () => {
  it('refuses non-strings with NotAStringError', async () => {
    for (const tok of await tokenizers()) {
      for (const [value, type] of [[undefined, 'undefined'], [null, 'null'], [42, 'number'], [['a'], 'array'], [{}, 'object']] as const) {
        const error = thrown(() => tok.count(value as unknown as string));
        expect(error).toBeInstanceOf(NotAStringError);
        expect(error).toBeInstanceOf(TokenizeError);
        expect(error).toMatchObject({ code: 'E_TOKENIZE_NOT_A_STRING', data: { type } });
      }
    }
  });

  it('refuses lone surrogates, naming the index', async () => {
    for (const tok of await tokenizers()) {
      expect(thrown(() => tok.count('ab\uD800cd'))).toMatchObject({ code: 'E_TOKENIZE_LONE_SURROGATE', data: { index: 2, codeUnit: 0xd800 } });
      expect(thrown(() => tok.count('😀x\uDC00'))).toBeInstanceOf(LoneSurrogateError);
      expect(thrown(() => tok.count('😀x\uDC00'))).toMatchObject({ data: { index: 3 } });
      expect(thrown(() => tok.count('\uD83D'))).toMatchObject({ data: { index: 0 } });
      expect(tok.count('😀')).toBeGreaterThan(0);
    }
  });

  it('refuses texts over MAX_TEXT_LENGTH before any work', async () => {
    const huge = 'a'.repeat(MAX_TEXT_LENGTH + 1);
    for (const tok of await tokenizers()) {
      const start = performance.now();
      const error = thrown(() => tok.count(huge));
      expect(error).toBeInstanceOf(TextTooLongError);
      expect(error).toMatchObject({ code: 'E_TOKENIZE_TEXT_TOO_LONG', data: { length: MAX_TEXT_LENGTH + 1, limit: 16 * 1024 * 1024 } });
      expect(performance.now() - start).toBeLessThan(1000);
    }
  });

  it('refuses unknown encodings, listing the known ones', async () => {
    await expect(loadTokenizer('p50k_base' as TokenizerEncoding)).rejects.toMatchObject({
      code: 'E_TOKENIZE_UNKNOWN_ENCODING',
      data: { encoding: 'p50k_base', known: ['o200k_base', 'cl100k_base', 'estimate'] },
    });
    expect(thrown(() => createTokenizerLoader().get('gpt2' as TokenizerEncoding))).toBeInstanceOf(UnknownEncodingError);
  });

  it("a loader's get is synchronous once loaded, and says how to load otherwise", async () => {
    const loader = createTokenizerLoader();
    expect(loader.get('estimate')).toBe(estimateTokenizer);
    expect(thrown(() => loader.get('o200k_base'))).toBeInstanceOf(EncodingNotLoadedError);
    const loaded = await loader.load('o200k_base');
    expect(loader.get('o200k_base')).toBe(loaded);
    expect(createTokenizerLoader().get('estimate')).toBe(estimateTokenizer);
    expect(thrown(() => createTokenizerLoader().get('o200k_base'))).toBeInstanceOf(EncodingNotLoadedError); // a loader's tokenizers are its own
    expect(new EncodingNotLoadedError('cl100k_base').message).toContain("await loader.load('cl100k_base')");
  });

  it('counts the empty string as zero', async () => {
    for (const tok of await tokenizers()) expect(tok.count('')).toBe(0);
  });
});
