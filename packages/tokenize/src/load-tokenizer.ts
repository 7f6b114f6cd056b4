import type { TiktokenBPE } from 'js-tiktoken/lite';
import { BpeCounter } from './bpe-counter.js';
import { TOKENIZER_ENCODINGS } from './encoding.js';
import type { EncodingName, TokenizerEncoding } from './encoding.js';
import { UnknownEncodingError } from './errors.js';
import { estimateTokenizer } from './estimate-tokenizer.js';
import { loadedTokenizers, pendingLoads } from './rank-cache.js';
import { TiktokenTokenizer } from './tiktoken-tokenizer.js';
import type { Tokenizer } from './tokenizer.js';

/** Rank data of one encoding, as the `js-tiktoken/ranks/*` modules export it. */
export type RankData = TiktokenBPE;

/** Options of {@link loadTokenizer}. */
export interface LoadTokenizerOptions {
  /**
   * Loads the rank data of one encoding. Given, it is called on every load and its result is not cached
   * (for tests and custom bundling).
   * @defaultValue a dynamic `import()` of `js-tiktoken/ranks/<encoding>` — only that one module — cached per encoding for the process
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

/**
 * Returns a ready {@link Tokenizer} for `encoding`, loading only that encoding's rank module on first use.
 *
 * @remarks
 * Exact encodings (`o200k_base`, `cl100k_base`) count over js-tiktoken's rank data with tiktoken's split and merge
 * order (verified equal to the `tiktoken` WASM package on the whole corpus), merging long pieces in O(n log n) so a
 * long run of spaces cannot stall (js-tiktoken's own `encode` takes 37 s on 20,000 spaces); special-token strings such as
 * `<|endoftext|>` in the text are counted as plain text, never rejected. Loads are cached per encoding for the
 * process (concurrent first calls share one import); after it resolves, {@link getTokenizer} returns the same
 * instance synchronously. `estimate` needs no ranks and resolves to the heuristic (`estimated: true`).
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
  if (!(TOKENIZER_ENCODINGS as readonly unknown[]).includes(encoding)) throw new UnknownEncodingError(encoding, TOKENIZER_ENCODINGS);
  if (encoding === 'estimate') return estimateTokenizer;
  if (options.importRanks !== undefined) return new TiktokenTokenizer(encoding, new BpeCounter(await options.importRanks(encoding)));
  const loaded = loadedTokenizers.get(encoding);
  if (loaded !== undefined) return loaded;
  let pending = pendingLoads.get(encoding);
  if (pending === undefined) {
    pending = importDefaultRanks(encoding).then((ranks) => {
      const tokenizer = new TiktokenTokenizer(encoding, new BpeCounter(ranks));
      loadedTokenizers.set(encoding, tokenizer);
      return tokenizer;
    });
    pending.finally(() => pendingLoads.delete(encoding)).catch(() => undefined);
    pendingLoads.set(encoding, pending);
  }
  return pending;
}
