import { TOKENIZER_ENCODINGS } from './encoding.js';
import type { TokenizerEncoding } from './encoding.js';
import { EncodingNotLoadedError, UnknownEncodingError } from './errors.js';
import { estimateTokenizer } from './estimate-tokenizer.js';
import { loadedTokenizers } from './rank-cache.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * Returns the {@link Tokenizer} for `encoding` synchronously, once it is loaded.
 *
 * @remarks `estimate` is always available. Exact encodings must first be loaded with `await loadTokenizer(encoding)`
 * (the rank modules are imported lazily, one per encoding); after that this returns the same cached instance.
 *
 * @param encoding - `o200k_base`, `cl100k_base` or `estimate`
 * @returns the loaded tokenizer
 * @throws {@link UnknownEncodingError} for an unknown name; {@link EncodingNotLoadedError} if the encoding is not loaded yet
 * @example
 * ```ts
 * await loadTokenizer('cl100k_base');
 * getTokenizer('cl100k_base').count('hello'); // 1
 * getTokenizer('estimate').estimated; // true
 * ```
 */
export function getTokenizer(encoding: TokenizerEncoding): Tokenizer {
  if (!(TOKENIZER_ENCODINGS as readonly unknown[]).includes(encoding)) throw new UnknownEncodingError(encoding, TOKENIZER_ENCODINGS);
  if (encoding === 'estimate') return estimateTokenizer;
  const loaded = loadedTokenizers.get(encoding);
  if (loaded === undefined) throw new EncodingNotLoadedError(encoding);
  return loaded;
}
