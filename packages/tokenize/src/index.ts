export type { Tokenizer } from './tokenizer.js';
