import { continuationViews } from './analyze-span.js';
import { rankValues, readValuesAhead, valuesLine } from './brief-values.js';
import { conversationBrief } from './conversation-brief.js';
import type { ContextItem } from './item.js';
import { RulesCache } from './rules-cache.js';
import { rankSaid, readSaidAhead, saidLine } from './said-words.js';

/** A line's UTF-8 bytes with its newline; none for an empty line. */
const bytes = (s: string): number => (s === '' ? 0 : Buffer.byteLength(s, 'utf8') + 1);
/** Share of the allowance left after the `VALUES:` line that the `SAID:` line may take. */
const SAID_SHARE = 1 / 2;

/**
 * The deterministic brief of folded items, written from the span itself (no model call): when the span holds tool
 * work, the continuation view of {@link analyzeSpan} followed by a `VALUES:` line (up to half the allowance) with
 * the distinctive values of the folded results ranked by how likely a later call reuses them (fields named like the
 * calls' arguments, identifier-shaped values, values already reused, newest first) and a `SAID:` line (up to half of
 * what the values leave) with the distinctive words the folded steps wrote themselves (agent text and call arguments,
 * ranked by how many steps wrote them, then newest first); else a
 * one-line-per-message digest, newest messages kept first, and the `SAID:` line (up to half the allowance). At most
 * `briefBytes` bytes of UTF-8 (the view's minimum is 64).
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
  return briefWriter(originals, cache)(briefBytes);
}

/** {@link defaultBrief} of `originals` at any allowance: what does not depend on it is worked out once. */
export function briefWriter(originals: readonly ContextItem[], cache = new RulesCache()): (briefBytes: number) => string {
  // Items already merged into an earlier summary are read as what they held when they were folded.
  const span = originals.map((it): ContextItem => (it.state === 'summarized' ? { ...it, state: 'aged' } : it));
  const tools = span.some((it) => it.role === 'tool');
  // Without tool work: a digest of the messages. With it (or a nested summary's values): up to half the allowance
  // carries the values later calls are likely to pass on, and the continuation view the rest.
  const ranked = tools || span.some((it) => it.folded !== undefined) ? rankValues(span, cache) : [];
  const views = tools ? continuationViews(span, cache) : undefined;
  const text = (allowance: number): string => (views !== undefined ? views(Math.max(64, allowance)).text : conversationBrief(span, Math.max(64, allowance)));
  const said = rankSaid(span, cache);
  return (briefBytes) => {
    const values = valuesLine(ranked, Math.floor(briefBytes / 2));
    const left = briefBytes - bytes(values);
    // The words the steps wrote themselves that neither spells (what a later step writes again) take up to SAID_SHARE
    // of what the values leave; the view (or digest) is written again into what they do not take.
    const first = text(Math.ceil(left * (1 - SAID_SHARE)));
    const saidText = saidLine(said, left - bytes(first), `${first}\n${values}`);
    const view = bytes(first) + bytes(saidText) < left ? text(left - bytes(saidText)) : first;
    return [view, values, saidText].filter((l) => l !== '').join('\n');
  };
}

/**
 * Works out now what {@link briefWriter} reads of each block of `items` (their values and words, kept in `cache`): the
 * pipeline runs it on the items each turn adds or changes, so each block is read once, when it first shows, and a fold
 * that takes it later writes its brief from memory rather than reading every block it folds in that turn.
 */
export function readBriefAhead(items: readonly ContextItem[], cache: RulesCache): void {
  readValuesAhead(items, cache);
  readSaidAhead(items, cache);
}
