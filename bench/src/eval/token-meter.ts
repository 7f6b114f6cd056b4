import { createHash } from 'node:crypto';
import type { Block, ContextItem } from '@ctxgit/rules';
import { messageOverhead } from '@ctxgit/tokenize';
import type { MessageOverhead, Tokenizer } from '@ctxgit/tokenize';

/** The wrappers of the OpenAI Chat Completions request the evaluation renders (`@ctxgit/tokenize`). */
export const OVERHEAD: MessageOverhead = messageOverhead('openai-chat');

/**
 * Measures items the same way for every policy: a whole request as the provider counts its rendered body (when a
 * request counter is given), one item as the exact tokens of its visible text plus the wrappers of an OpenAI chat request.
 */
export interface TokenMeter {
  readonly encoding: string;
  /** The text of blocks as the model sees and the recall metric searches it. */
  text(blocks: readonly Block[]): string;
  /** Tokens of one item as a message of the request (0 for a `summarized` item, which is not sent). */
  itemTokens(item: ContextItem): number;
  /** Tokens of a whole request made of `items`: its rendered body's count, else the sum of {@link TokenMeter.itemTokens} and the per-request tokens. */
  requestTokens(items: readonly ContextItem[]): number;
  /** Digest of the item as rendered: equal digests mean byte-identical renders. */
  itemKey(item: ContextItem): string;
}

function blocksText(blocks: readonly Block[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_call' ? `${b.name}(${b.arguments})` : b.output))
    .join('\n');
}

/**
 * A memoizing {@link TokenMeter} over `tokenizer`, with the wrappers of `overhead` (default: the OpenAI chat
 * request the evaluation renders). With `countRequest` (the rendered body's input tokens, `null` when it cannot be
 * rendered) whole requests are counted as the evaluation scores them, so a baseline that fits its budget by the
 * meter fits it by the score.
 * @example
 * ```ts
 * const meter = createTokenMeter(await loadTokenizer('o200k_base'));
 * meter.requestTokens(items);
 * ```
 */
export function createTokenMeter(
  tokenizer: Tokenizer,
  overhead: Omit<MessageOverhead, 'format'> = OVERHEAD,
  countRequest?: (items: readonly ContextItem[]) => number | null,
): TokenMeter {
  const counts = new Map<string, number>();
  const keys = new WeakMap<ContextItem, string>();
  const count = (text: string): number => {
    let n = counts.get(text);
    if (n === undefined) {
      n = tokenizer.count(text);
      counts.set(text, n);
    }
    return n;
  };
  const itemTokens = (item: ContextItem): number =>
    item.state === 'summarized'
      ? 0
      : count(blocksText(item.blocks)) + overhead.perMessage + (item.blocks.some((b) => b.type === 'tool_call') ? overhead.perToolCall : 0);
  return {
    encoding: tokenizer.encoding,
    text: blocksText,
    itemTokens,
    requestTokens: (items) => countRequest?.(items) ?? items.reduce((sum, item) => sum + itemTokens(item), overhead.perRequest),
    itemKey(item) {
      let key = keys.get(item);
      if (key === undefined) {
        key = createHash('sha256').update(JSON.stringify([item.role, item.state, item.blocks])).digest('hex');
        keys.set(item, key);
      }
      return key;
    },
  };
}
