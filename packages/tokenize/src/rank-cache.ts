import type { Tokenizer } from './tokenizer.js';

/** Process-wide cache of loaded exact tokenizers, one per encoding (the rank tables are large and immutable). */
export const loadedTokenizers = new Map<string, Tokenizer>();
/** In-flight loads, so concurrent first calls import each rank module once. */
export const pendingLoads = new Map<string, Promise<Tokenizer>>();
