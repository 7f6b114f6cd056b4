/** Billed cost of the calls under one price model. */
export interface CostFigures {
  /** Cost in base-input-token units: uncached + write x writeMultiplier + read x readMultiplier. */
  readonly units: number;
  readonly usd: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly uncached: number;
}

/** The figures of one policy under one budget, over one corpus (or `all`). */
export interface PolicySummary {
  readonly policy: string;
  readonly budget: number;
  readonly corpus: string;
  readonly conversations: number;
  readonly calls: number;
  readonly inputTokens: {
    readonly total: number;
    readonly meanPerCall: number;
    readonly p50: number;
    readonly p95: number;
    readonly max: number;
  };
  readonly budgetViolations: { readonly count: number; readonly share: number };
  /** Calls the policy refused (nothing was sent), with the first reason. */
  readonly refusals: { readonly count: number; readonly first: string | null };
  /** Requests that could not be rendered into a valid provider body. */
  readonly invalidRequests: number;
  /** Requests that rewrote or dropped part of the previous request of their conversation (a cache prefix break). */
  readonly prefixBreaks: number;
  /** Tokens of previous requests after the prefix the next one repeats, summed: what the cache lost. */
  readonly rewrittenTokens: number;
  readonly latestUser: { readonly alwaysPresent: boolean; readonly misses: number };
  readonly system: { readonly alwaysPresent: boolean; readonly misses: number };
  /** Token- and byte-weighted share of each request identical to the previous request of its conversation. */
  readonly cachedPrefixShare: { readonly tokens: number; readonly bytes: number };
  readonly dependencyRecall: { readonly reused: number; readonly visible: number; readonly share: number };
  /**
   * Dependency recall over the reused identifiers shaped like identifiers where the step writes them (a digit,
   * `_ . / :`, an inner `-` or capital: `mia_li_3668`, `file.py`, `getUser`), plain words (`installing`) left out.
   * Absent from results written before it was measured.
   */
  readonly identifierRecall?: { readonly reused: number; readonly visible: number; readonly share: number };
  /**
   * For a policy run at each price model's prices (ctxgit): the dependency recall of each run, per price model id
   * (`dependencyRecall` is the run at the first's). Absent for other policies and from results written before it was measured.
   */
  readonly recallByPrice?: Readonly<Record<string, { readonly reused: number; readonly visible: number; readonly share: number }>>;
  /** Per price model id. */
  readonly cost: Readonly<Record<string, CostFigures>>;
  /** This policy over the full history for the same budget and corpus: input tokens and cost per price model. */
  readonly ratioToFull: { readonly inputTokens: number; readonly cost: Readonly<Record<string, number>> };
}
