import type { RulesCache } from './rules-cache.js';

/** Kind of a dependency edge of the span graph. */
export type SpanEdgeKind = 'call' | 'reuse' | 'round' | 'step';

/**
 * One dependency edge: `from` depends on `to` (which is earlier). Weights: `call` (tool result → the step
 * that issued it) 1, `reuse` (step → a result of the previous round whose distinctive tokens it reuses) 2,
 * `round` (step → another result of that round) 0, `step` (step → the previous step) 1.
 */
export interface SpanEdge {
  readonly from: string;
  readonly to: string;
  readonly weight: number;
  readonly kind: SpanEdgeKind;
}

/** The NEXT / ON DISK / RULED OUT / ESTABLISHED lines of a continuation view, each ordered by distance. */
export interface ContinuationView {
  readonly next: readonly string[];
  readonly onDisk: readonly string[];
  readonly ruledOut: readonly string[];
  readonly established: readonly string[];
  /** Keys of the graph nodes reached from the frontier, nearest first (the shortest-path tree order). */
  readonly order: readonly string[];
  /** The rendered brief; at most the byte allowance in UTF-8. */
  readonly text: string;
}

/** The graph analysis of a span of items (see {@link analyzeSpan}). */
export interface SpanAnalysis {
  /** Keys of the graph nodes (visible assistant and tool items), in list order. */
  readonly nodes: readonly string[];
  readonly edges: readonly SpanEdge[];
  /** Key of the latest assistant step, or `null` when the span has none. */
  readonly frontier: string | null;
  /** The longest weighted path ending at the frontier, oldest first. */
  readonly criticalChain: readonly string[];
  /** Total weight of the critical chain. */
  readonly chainWeight: number;
  /** Tool-result key → key of the later result that supersedes it (identical call, or same file path). */
  readonly superseded: ReadonlyMap<string, string>;
  /** Keys of failed tool results. */
  readonly failed: ReadonlySet<string>;
  /** Tool-result key → distinctive tokens the next step reuses from it (sorted). */
  readonly reused: ReadonlyMap<string, readonly string[]>;
  readonly continuation: ContinuationView;
}

/** Options of {@link analyzeSpan}. */
export interface AnalyzeSpanOptions {
  /** Byte allowance (UTF-8) of the continuation brief. @defaultValue 1400 */
  readonly briefBytes?: number;
  /** Read `summarized` items too (with the content they held when folded), so folding does not change the graph. @defaultValue false */
  readonly includeSummarized?: boolean;
  /** Memos of earlier calls on the same content (a session's {@link RulesCache}). @defaultValue a fresh cache for this call */
  readonly cache?: RulesCache;
}
