import type { ContextCommit } from '@ctxgit/commit';
import type { ContextItem } from '@ctxgit/rules';
import { render } from '@ctxgit/render';
import { canonicalRequest } from './canonical-request.js';
import type { RequestRenderer } from './replay-policy.js';

/** A {@link RequestRenderer} plus what went wrong while rendering. */
export interface CountingRenderer {
  readonly render: RequestRenderer;
  /** Requests `@ctxgit/render` refused; they were measured as the canonical JSON of their items instead. */
  fallbacks(): { readonly count: number; readonly firstError: string | null };
}

/**
 * Renders requests as OpenAI Chat Completions bodies with `@ctxgit/render` (the byte sequence a positional
 * provider cache sees), counting the requests it refuses.
 * @example
 * ```ts
 * const r = requestRenderer();
 * r.render(items); // '{"model":"gpt-4o","messages":[…]}'
 * ```
 */
export function requestRenderer(): CountingRenderer {
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
  return {
    render(items) {
      try {
        return JSON.stringify(render(commit(items), { provider: 'openai-chat', allowAssistantLast: true }));
      } catch (e) {
        count++;
        firstError ??= e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        return canonicalRequest(items);
      }
    },
    fallbacks: () => ({ count, firstError }),
  };
}
