import type { Tokenizer } from '@ctxgit/tokenize';
import type { Block } from './item.js';
import { itemText } from './item-text.js';

const MAX_ENTRIES = 20_000;
/** Longer texts are counted each time rather than kept as keys. */
const MAX_KEY_CHARS = 16_384;
const byTokenizer = new WeakMap<Tokenizer, Map<string, number>>();

/** Token count of blocks, memoized per tokenizer and content up to 16,384 chars (a pure cache, cleared when it grows large). */
export function countBlockTokens(tokenizer: Tokenizer, blocks: readonly Block[]): number {
  let memo = byTokenizer.get(tokenizer);
  if (memo === undefined) {
    memo = new Map();
    byTokenizer.set(tokenizer, memo);
  }
  const text = itemText(blocks);
  if (text.length > MAX_KEY_CHARS) return tokenizer.count(text);
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const n = tokenizer.count(text);
  if (memo.size >= MAX_ENTRIES) memo.clear();
  memo.set(text, n);
  return n;
}
