import type { TokenizerEncoding } from './encoding.js';
import { EncodingNotLoadedError } from './errors.js';
import type { UnknownEncodingError } from './errors.js';
import { estimateTokenizer } from './estimate-tokenizer.js';
import { checkEncoding, loadTokenizer } from './load-tokenizer.js';
import type { LoadTokenizerOptions } from './load-tokenizer.js';
import type { Tokenizer } from './tokenizer.js';

/** Loads tokenizers once per encoding and keeps them for as long as its owner keeps it (see {@link createTokenizerLoader}). */
export interface TokenizerLoader {
  /** The tokenizer of `encoding`: built on the first call (concurrent first calls share one build), the same instance after. */
  load(encoding: TokenizerEncoding): Promise<Tokenizer>;
  /**
   * The tokenizer of `encoding` synchronously, once {@link TokenizerLoader.load} resolved for it (`estimate` always).
   * @throws {@link EncodingNotLoadedError} when it is not loaded yet; {@link UnknownEncodingError} for an unknown name
   */
  get(encoding: TokenizerEncoding): Tokenizer;
}

/**
 * Creates a loader that builds each encoding's tokenizer once, on first use, and keeps it.
 *
 * @remarks The rank tables are large (an exact tokenizer takes about 100 ms to build and tens of MB): whoever owns
 * the loader owns them, and they go with it — nothing is kept in module scope. A repository (`openRepo`) has one,
 * so every session it opens shares the tokenizers, and a session that never counts never builds one.
 *
 * @param options - see {@link LoadTokenizerOptions} (`importRanks` for tests and custom bundling)
 * @returns a new loader, with nothing loaded
 * @example
 * ```ts
 * const tokenizers = createTokenizerLoader();
 * const tok = await tokenizers.load('o200k_base');
 * tokenizers.get('o200k_base') === tok; // true
 * tokenizers.get('estimate').estimated; // true
 * ```
 */
export function createTokenizerLoader(options: LoadTokenizerOptions = {}): TokenizerLoader {
  const loaded = new Map<string, Tokenizer>();
  const pending = new Map<string, Promise<Tokenizer>>();
  return {
    async load(encoding: TokenizerEncoding): Promise<Tokenizer> {
      const hit = loaded.get(encoding);
      if (hit !== undefined) return hit;
      let p = pending.get(encoding);
      if (p === undefined) {
        p = loadTokenizer(encoding, options).then((tokenizer) => {
          loaded.set(encoding, tokenizer);
          return tokenizer;
        });
        p.finally(() => pending.delete(encoding)).catch(() => undefined);
        pending.set(encoding, p);
      }
      return p;
    },
    get(encoding: TokenizerEncoding): Tokenizer {
      checkEncoding(encoding);
      if (encoding === 'estimate') return estimateTokenizer;
      const hit = loaded.get(encoding);
      if (hit === undefined) throw new EncodingNotLoadedError(encoding);
      return hit;
    },
  };
}
