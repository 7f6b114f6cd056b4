import type { Tokenizer } from '@ctxgit/tokenize';
import type { ContextItem } from './item.js';
import type { FoldedLookup } from './folded-originals.js';
import type { RulesCache } from './rules-cache.js';

/** The occupancy band, as fractions of the history budget, with its normalized token marks. */
export interface Band {
  /** Tokens available to the history (every visible item except `system` ones). */
  readonly historyBudget: number;
  /** Upper mark in tokens: above it an epoch opens and folding starts. */
  readonly upper: number;
  /** Lower mark in tokens: an epoch folds down to it. */
  readonly lower: number;
  /** Emergency mark in tokens: the history may never stay above it (else `RulesOverBudgetError`). */
  readonly emergency: number;
  /** Whether mutations before the tail are batched into epochs. */
  readonly epochs: boolean;
  /** An epoch also opens when the newest parent item is at least this old (ms): the provider cache is cold. */
  readonly coldAfterMs: number;
}

/** What a rule sees besides the items. Everything is pure; nothing reads the clock. */
export interface RuleContext {
  /** Milliseconds since the epoch, given by the caller. */
  readonly now: number;
  readonly tokenizer: Tokenizer;
  readonly band: Band;
  /** Token count of blocks as the runner counts them (memoized). */
  countTokens(blocks: ContextItem['blocks']): number;
  /** Sum of `tokens` of visible (not `summarized`) non-`system` items; memoized per list (lists are never mutated). */
  historyTokens(items: readonly ContextItem[]): number;
  /**
   * Whether mutations of items before the tail may be applied on this run. Decided once per run, at the
   * first call, from the items passed then: always when epochs are off, else when the history is above
   * the upper mark or the cache is cold.
   */
  epochOpen(items: readonly ContextItem[]): boolean;
  /** The items a summary of the parent list folded, when a fold absorbs it (see `PipelineContext.foldedOf`). */
  readonly foldedOf?: FoldedLookup;
  /**
   * What the rules keep between runs ({@link RulesCache}): the caller's, or a fresh one for this run. The rules'
   * helpers use it to cost what changed since an earlier list; a rule that ignores it stays correct.
   */
  readonly cache: RulesCache;
}

/**
 * A rule: a pure, deterministic function from items to items, with a name and a version that go into
 * the pipeline version string. The runner checks every invariant after each rule.
 */
export interface Rule {
  /** Short stable name, e.g. `aging`. */
  readonly name: string;
  /** Bumped whenever the rule's output for the same input changes. */
  readonly version: number;
  /**
   * Returns the new list; must return items unchanged (same objects) when nothing applies, and must not mutate
   * `items` or a list once returned (the runner remembers lists by identity to skip unchanged positions).
   */
  apply(items: readonly ContextItem[], ctx: RuleContext): readonly ContextItem[];
}
