import type { TiktokenBPE } from 'js-tiktoken/lite';
import { BpeCounter } from './bpe-counter.js';
import { TOKENIZER_ENCODINGS } from './encoding.js';
import type { EncodingName, TokenizerEncoding } from './encoding.js';
import { UnknownEncodingError } from './errors.js';
import { estimateTokenizer } from './estimate-tokenizer.js';
import { TiktokenTokenizer } from './tiktoken-tokenizer.js';
import type { Tokenizer } from './tokenizer.js';

/** Rank data of one encoding, as the `js-tiktoken/ranks/*` modules export it. */
export type RankData = TiktokenBPE;

/** Options of {@link loadTokenizer} and {@link createTokenizerLoader}. */
export interface LoadTokenizerOptions {
  /**
   * Loads the rank data of one encoding (for tests and custom bundling).
   * @defaultValue a dynamic `import()` of `js-tiktoken/ranks/<encoding>` — only that one module
   */
  readonly importRanks?: (encoding: EncodingName) => Promise<RankData>;
}

async function importDefaultRanks(encoding: EncodingName): Promise<RankData> {
  switch (encoding) {
    case 'o200k_base':
      return (await import('js-tiktoken/ranks/o200k_base')).default;
    case 'cl100k_base':
      return (await import('js-tiktoken/ranks/cl100k_base')).default;
  }
}

/** Throws {@link UnknownEncodingError} unless `encoding` is one of {@link TOKENIZER_ENCODINGS}. */
export function checkEncoding(encoding: TokenizerEncoding): void {
  if (!(TOKENIZER_ENCODINGS as readonly unknown[]).includes(encoding)) throw new UnknownEncodingError(encoding, TOKENIZER_ENCODINGS);
}

/**
 * Builds a new {@link Tokenizer} for `encoding`, importing only that encoding's rank module.
 *
 * @remarks
 * Exact encodings (`o200k_base`, `cl100k_base`) count over js-tiktoken's rank data with tiktoken's split and merge
 * order (verified equal to the `tiktoken` WASM package on the whole corpus), merging long pieces in O(n log n) so a
 * long run of spaces cannot stall (js-tiktoken's own `encode` takes 37 s on 20,000 spaces); special-token strings such as
 * `<|endoftext|>` in the text are counted as plain text, never rejected. Nothing is cached between calls: each call
 * builds the rank tables again (about 100 ms), so keep the tokenizer, or let a {@link createTokenizerLoader} loader
 * that you own keep it. `estimate` needs no ranks and resolves to the heuristic (`estimated: true`).
 *
 * @param encoding - `o200k_base`, `cl100k_base` or `estimate`
 * @param options - see {@link LoadTokenizerOptions}
 * @returns the tokenizer for `encoding`
 * @throws {@link UnknownEncodingError} (rejected promise) for any other name
 * @example
 * ```ts
 * const tok = await loadTokenizer('o200k_base');
 * tok.count('hello world'); // 2
 * ```
 */
export async function loadTokenizer(encoding: TokenizerEncoding, options: LoadTokenizerOptions = {}): Promise<Tokenizer> {
  checkEncoding(encoding);
  if (encoding === 'estimate') return estimateTokenizer;
  const ranks = await (options.importRanks ?? importDefaultRanks)(encoding);
  return new TiktokenTokenizer(encoding, new BpeCounter(ranks));
}
