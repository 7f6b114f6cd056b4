import { analyzeSpan } from './analyze-span.js';
import { conversationBrief } from './conversation-brief.js';
import type { ContextItem } from './item.js';

/**
 * The deterministic brief of folded items, written from the span itself (no model call): the continuation
 * view of {@link analyzeSpan} when the span holds tool work, else a one-line-per-message digest, newest
 * messages kept first. At most `briefBytes` bytes of UTF-8.
 *
 * @param originals - The folded items, in list order (`summarized` ones are read with their stored content).
 * @param briefBytes - Byte allowance. Default 1400.
 * @returns The brief text.
 * @example
 * ```ts
 * defaultBrief(foldedItems, 1400); // '[ctxgit brief] 12 steps, 15 tool results\nNEXT:\n- ...'
 * ```
 */
export function defaultBrief(originals: readonly ContextItem[], briefBytes = 1400): string {
  // Items already merged into an earlier summary are read as what they held when they were folded.
  const span = originals.map((it): ContextItem => (it.state === 'summarized' ? { ...it, state: 'aged' } : it));
  return span.some((it) => it.role === 'tool') ? analyzeSpan(span, { briefBytes }).continuation.text : conversationBrief(span, briefBytes);
}
