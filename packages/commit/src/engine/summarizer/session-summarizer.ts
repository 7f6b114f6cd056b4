import type { Node } from '@ctxgit/dag';
import type { SummarizeInput } from '@ctxgit/rules';

/** What a {@link SessionSummarizer} gets for one new summary: the rules' {@link SummarizeInput} plus the DAG nodes. */
export interface SessionSummarizeInput extends SummarizeInput {
  /**
   * The DAG nodes behind `items`, in the same order: the exact original text, also of items the rules had already
   * aged or cut (an item whose node cannot be read, such as an attach stand-in of a missing commit, is left out).
   */
  readonly nodes: readonly Node[];
}

/**
 * A summarizer plugged into a session (`summarizer` of {@link SessionOptions} or {@link OpenRepoOptions}): on every
 * commit that folds, it is asked for the text of each new summary. The deterministic brief is the default and the
 * fallback: a summarizer that throws, resolves to something other than a non-empty string, takes longer than
 * `timeoutMs`, or returns more than `maxBytes` leaves the brief in place, and the commit message says why.
 *
 * @example
 * ```ts
 * const summarizer: SessionSummarizer = {
 *   name: 'haiku',
 *   summarize: async ({ nodes }, signal) => callMyModel(nodes.map((n) => n.output), { signal }), // the folded originals, in list order
 *   timeoutMs: 20_000,
 * };
 * const s = await repo.createSession('chat', { model: 'anthropic:claude-sonnet-4-5', summarizer });
 * ```
 */
export interface SessionSummarizer {
  /** Recorded as the summary's reason, `summarizer:<name>`; `^[A-Za-z0-9._-]{1,64}$`. */
  readonly name: string;
  /**
   * The summary text of one fold.
   *
   * @param input - the summary's key, the folded originals (list order: `items` as the context holds them, `nodes` as the DAG does) and the deterministic brief
   * @param signal - aborted when `timeoutMs` passes (the brief is kept then)
   */
  readonly summarize: (input: SessionSummarizeInput, signal: AbortSignal) => Promise<string>;
  /** Milliseconds to wait for one summary before keeping the brief. @defaultValue 60_000 */
  readonly timeoutMs?: number;
  /** UTF-8 bytes a summary may take; a longer one is refused and the brief kept. @defaultValue 4096 */
  readonly maxBytes?: number;
}

/** Why a summary kept its deterministic brief. */
export type SummarizerFallbackReason = 'threw' | 'timeout' | 'not_text' | 'over_allowance' | 'over_budget';

/** One summary that kept its deterministic brief, as the commit message records it. */
export interface SummarizerFallback {
  /** Key of the summary item. */
  readonly key: string;
  readonly reason: SummarizerFallbackReason;
  /** What happened: the error message, the timeout, the size against the allowance. */
  readonly detail: string;
}
