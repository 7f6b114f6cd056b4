import type { ContextCommit } from '@ctxgit/commit';
import type { ContextItem } from '@ctxgit/rules';
import { render } from '@ctxgit/render';
import { countRequest, createMemoTokenizer } from '@ctxgit/tokenize';
import type { Tokenizer } from '@ctxgit/tokenize';
import { canonicalRequest } from './canonical-request.js';
import type { RequestRenderer } from './replay-policy.js';

/** A {@link RequestRenderer} plus what went wrong while rendering. */
export interface CountingRenderer {
  readonly render: RequestRenderer;
  /** Input tokens of the items' rendered body, or `null` when they cannot be rendered (not counted as a fallback: a policy's candidate, not a request). */
  readonly count: (items: readonly ContextItem[]) => number | null;
  /** Requests `@ctxgit/render` refused; they were measured as the canonical JSON of their items instead. */
  fallbacks(): { readonly count: number; readonly firstError: string | null };
}

/**
 * Renders requests as OpenAI Chat Completions bodies with `@ctxgit/render` (the byte sequence a positional
 * provider cache sees), counts each body's input tokens with `countRequest` (what the provider bills and holds
 * against the window), and counts the requests it refuses.
 * @example
 * ```ts
 * const r = requestRenderer(await loadTokenizer('o200k_base'));
 * r.render(items); // { body: '{"model":"gpt-4o","messages":[…]}', tokens: 1234 }
 * ```
 */
export function requestRenderer(tokenizer: Tokenizer): CountingRenderer {
  const memo = createMemoTokenizer(tokenizer, { maxEntries: 50_000 });
  let count = 0;
  let firstError: string | null = null;
  const commit = (items: readonly ContextItem[]): ContextCommit => ({
    id: 'bench',
    session: 'bench',
    parentIds: [],
    headNodeId: items[items.length - 1]?.sourceNodeId ?? '',
    rulesVersion: 'bench',
    model: 'openai:gpt-4o',
    window: 128_000,
    totalTokens: 0,
    items,
    summary: { added: 0, aged: 0, cleared: 0, folded: 0, firstChangedIndex: 0 },
    createdAt: 0,
  });
  const body = (items: readonly ContextItem[]): unknown => render(commit(items), { provider: 'openai-chat', allowAssistantLast: true });
  return {
    count(items) {
      try {
        return countRequest('openai-chat', body(items), memo).total;
      } catch {
        return null;
      }
    },
    render(items) {
      try {
        const sent = body(items);
        return { body: JSON.stringify(sent), tokens: countRequest('openai-chat', sent, memo).total };
      } catch (e) {
        count++;
        firstError ??= e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        return { body: canonicalRequest(items), tokens: null };
      }
    },
    fallbacks: () => ({ count, firstError }),
  };
}
