import { analyzeSpan } from './analyze-span.js';
import { briefValues } from './brief-values.js';
import { conversationBrief } from './conversation-brief.js';
import type { ContextItem } from './item.js';
import type { RulesCache } from './rules-cache.js';

/**
 * The deterministic brief of folded items, written from the span itself (no model call): when the span holds tool
 * work, the continuation view of {@link analyzeSpan} followed by a `VALUES:` line (up to half the allowance) with
 * the distinctive values of the folded results ranked by how likely a later call reuses them (fields named like the
 * calls' arguments, identifier-shaped values, values already reused, newest first); else a one-line-per-message
 * digest, newest messages kept first. At most `briefBytes` bytes of UTF-8 (the view's minimum is 64).
 *
 * @param originals - The folded items, in list order (`summarized` ones are read with their stored content).
 * @param briefBytes - Byte allowance. Default 1400.
 * @param cache - Memos of earlier calls on the same content (a session's {@link RulesCache}). Default: a fresh one.
 * @returns The brief text.
 * @example
 * ```ts
 * defaultBrief(foldedItems, 1400); // '[ctxgit brief] 12 steps, 15 tool results\nNEXT:\n- ...'
 * ```
 */
export function defaultBrief(originals: readonly ContextItem[], briefBytes = 1400, cache?: RulesCache): string {
  // Items already merged into an earlier summary are read as what they held when they were folded.
  const span = originals.map((it): ContextItem => (it.state === 'summarized' ? { ...it, state: 'aged' } : it));
  if (!span.some((it) => it.role === 'tool')) return conversationBrief(span, briefBytes);
  // Up to half the allowance carries the values later calls are likely to pass on; the continuation view gets the rest.
  const values = briefValues(span, Math.floor(briefBytes / 2));
  const rest = briefBytes - (values === '' ? 0 : new TextEncoder().encode(values).length + 1);
  const view = analyzeSpan(span, { briefBytes: Math.max(64, rest), ...(cache === undefined ? {} : { cache }) }).continuation.text;
  return values === '' ? view : `${view}\n${values}`;
}
