import type { Tokenizer } from '@ctxgit/tokenize';
import type { Block } from './item.js';
import { itemText } from './item-text.js';
import type { RulesCache } from './rules-cache.js';

const MAX_ENTRIES = 20_000;
/** Longer texts are counted each time rather than kept as keys. */
const MAX_KEY_CHARS = 16_384;

/** The token counts of a cache, per tokenizer and text. */
function newTokenMemo(): WeakMap<Tokenizer, Map<string, number>> {
  return new WeakMap();
}

/** Token count of blocks, memoized in `cache` per tokenizer and content up to 16,384 chars (cleared when it grows large). */
export function countBlockTokens(cache: RulesCache, tokenizer: Tokenizer, blocks: readonly Block[]): number {
  const byTokenizer = cache.part(newTokenMemo);
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
