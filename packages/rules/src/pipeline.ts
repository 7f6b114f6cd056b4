import type { Node } from '@ctxgit/dag';
import type { MessageOverhead, Tokenizer } from '@ctxgit/tokenize';
import type { ContextItem } from './item.js';
import type { Rule } from './rule.js';
import type { FoldedLookup } from './folded-originals.js';
import type { RulesCache } from './rules-cache.js';

/** The occupancy band as fractions of the history budget; `lower <= upper <= emergency`. */
export interface BandOptions {
  /** Upper mark: above it an epoch opens and folding starts. @defaultValue 0.9 */
  readonly foldAt?: number;
  /** Lower mark: folding goes down to it. @defaultValue 0.5 */
  readonly foldTo?: number;
  /** Emergency mark: the history may not stay above it. @defaultValue 0.95 */
  readonly emergencyAt?: number;
  /**
   * Batch mutations before the tail into epochs: they happen on a turn whose history passes the upper mark (or whose
   * cache is cold), and, when the pipeline folds, only if the turn ends under the upper mark or the history was above
   * the emergency mark (else the turn keeps the parent's list: a break of the cached prefix that buys no headroom
   * would come again next turn). `false` applies them on every run. @defaultValue true
   */
  readonly epochs?: boolean;
  /** An epoch also opens when the newest parent item is at least this old (ms; a cold cache). @defaultValue 3_600_000 */
  readonly coldAfterMs?: number;
}

/** A new entry for the pipeline: a DAG node, or an item the caller built (an attach expansion). */
export type PipelineInput = Node | ContextItem;

/**
 * The request the items go into: the window it must fit, and what it holds besides the history. With a frame the
 * rules count every item as the provider does (its text plus its message wrappers) and give the history what is
 * left of the window, so no request passes the window.
 */
export interface RequestFrame {
  /** The model's context window, in tokens. */
  readonly window: number;
  /** Tokens kept free for the reply. @defaultValue 0 */
  readonly outputReserve?: number;
  /** Tokens of the request that are not items: tool definitions, a system prompt held outside the list. @defaultValue 0 */
  readonly fixedTokens?: number;
  /** Wrapper tokens of the provider's format (`messageOverhead` of `@ctxgit/tokenize`). @defaultValue no wrappers */
  readonly overhead?: MessageOverhead;
}

/** Inputs of {@link runPipeline} besides the items. */
export interface PipelineContext {
  /** Milliseconds since the epoch; the only time the rules see. */
  readonly now: number;
  readonly tokenizer: Tokenizer;
  /**
   * Tokens the history (all visible non-system items) may occupy. With a `request` frame it defaults to what the
   * frame leaves (`window − outputReserve − fixedTokens − system items − per-request tokens`); given as well, the
   * smaller one holds. Required without a frame.
   */
  readonly historyBudget?: number;
  /** The request the items go into; see {@link RequestFrame}. @defaultValue none: items are counted by their text */
  readonly request?: RequestFrame;
  /** The rules, in order. @defaultValue `defaultRules()` */
  readonly rules?: readonly Rule[];
  readonly band?: BandOptions;
  /**
   * The items a summary of the parent list folded (they live under it, not in the live list), in order: read only
   * when a fold absorbs that summary, to write the new brief from the originals. @defaultValue none: such a fold
   * throws `RulesFoldedNeededError` naming the summaries its walk found missing
   */
  readonly foldedOf?: FoldedLookup;
  /**
   * What the rules keep between runs: hand the same {@link RulesCache} to every run of one session, so that a run
   * costs what changed since the previous one. @defaultValue a fresh cache for this run (the same result; the run
   * examines the whole list)
   */
  readonly cache?: RulesCache;
}

/** An async summarizer that replaces the deterministic brief of a new summary item. */
export interface Summarizer {
  /** Recorded in the summary's reason as `summarizer:<name>`. */
  readonly name: string;
  /** The summary text; `undefined` keeps the deterministic brief (counted in `report.summarizerFallbacks`). */
  summarize(input: SummarizeInput): Promise<string | undefined>;
}

/** What a {@link Summarizer} gets for one new summary. */
export interface SummarizeInput {
  /** Key of the summary item. */
  readonly key: string;
  /** The folded original items, in list order (their current content). */
  readonly items: readonly ContextItem[];
  /** The deterministic brief the summary holds now. */
  readonly brief: string;
}

/** Context of {@link runPipelineAsync}: a {@link PipelineContext} plus an optional summarizer. */
export interface AsyncPipelineContext extends PipelineContext {
  readonly summarizer?: Summarizer;
}

/** Counts of what one rule did. */
export interface RuleReport {
  readonly rule: string;
  /** Items whose content or state changed. */
  readonly changed: number;
  readonly capped: number;
  readonly aged: number;
  readonly cleared: number;
  /** Items that became `summarized` (a summary folded into a later one is not counted). */
  readonly folded: number;
  /** Summary items created. */
  readonly summaries: number;
}

/** What a pipeline run did, in total and per rule. */
export interface PipelineReport {
  /** Items appended from new nodes or given items. */
  readonly added: number;
  readonly capped: number;
  readonly aged: number;
  readonly cleared: number;
  readonly folded: number;
  readonly summaries: number;
  /** Whether a cache epoch opened (mutations before the tail were allowed). */
  readonly epoch: boolean;
  /** Summaries that kept the deterministic brief: the summarizer resolved to `undefined`, or its text was refused (over the emergency mark). */
  readonly summarizerFallbacks: number;
  /**
   * Tokens of the parent's visible items from the first changed position on: what the previous request held that
   * this one sends rewritten or not at all (the cached prefix it gives up). 0 when only new items were appended.
   */
  readonly rewrittenTokens: number;
  /** Tokens of the leading visible items that this request repeats unchanged from the parent (its reusable prefix). */
  readonly keptPrefixTokens: number;
  readonly rules: readonly RuleReport[];
}

/** The result of {@link runPipeline}. */
export interface PipelineResult {
  /** The live list: the visible items (`full`, `aged`, `cleared`, `summary`); no `summarized` item. */
  readonly items: readonly ContextItem[];
  /**
   * For each summary made on this run (those in `items`, and those a later fold of the same run absorbed): the items
   * it folded, in order, now `summarized` with `mergedInto` naming it. Every parent item and new item is either in
   * `items` or in exactly one of these lists. Empty when nothing folded.
   */
  readonly folds: ReadonlyMap<string, readonly ContextItem[]>;
  /** Tokens of all visible (not `summarized`) items. */
  readonly totalTokens: number;
  /** Tokens of visible non-system items: what the band is measured on. */
  readonly historyTokens: number;
  /** Index of the first item that differs from the parent list (the cacheable prefix); the length when none. */
  readonly firstChangedIndex: number;
  /**
   * Positions below the parent's length whose item is another object than the parent's there (same key), ascending;
   * present when the run kept every parent item in place (no fold), so a caller can update what it derived from the
   * parent in what changed. Positions from the parent's length on are the new items.
   */
  readonly changedPositions?: readonly number[];
  readonly report: PipelineReport;
}
