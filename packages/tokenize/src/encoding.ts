/** Names of the rank-based encodings this package counts exactly. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** Every encoding name accepted by `loadTokenizer` and a `TokenizerLoader`: the exact ones plus `estimate`. */
export type TokenizerEncoding = EncodingName | 'estimate';

/** The exact encodings, in a stable order: `o200k_base`, `cl100k_base`. */
export const ENCODING_NAMES: readonly EncodingName[] = Object.freeze(['o200k_base', 'cl100k_base'] as const);

/** Every accepted encoding name, in a stable order: `o200k_base`, `cl100k_base`, `estimate`. */
export const TOKENIZER_ENCODINGS: readonly TokenizerEncoding[] = Object.freeze(['o200k_base', 'cl100k_base', 'estimate'] as const);
