/** Tools whose results never age or fold by default. */
export const DEFAULT_PROTECTED_TOOLS: readonly string[] = ['todo_create', 'todo_update', 'todo_list', 'web_search'];

/** Options of {@link defaultRules}; every number has a default from the design brief. */
export interface RulesOptions {
  /** Tool results outside the last this-many assistant turns age. @defaultValue 3 */
  readonly tailTurns?: number;
  /** Characters of the output kept in an aged stub. @defaultValue 80 */
  readonly stubChars?: number;
  /** Characters of the tool-call arguments kept when aged. @defaultValue 200 */
  readonly callArgsChars?: number;
  /** Tool results longer than this many characters are cut, even in the tail. @defaultValue 4000 */
  readonly capChars?: number;
  /** Characters kept at the head of a cut result. @defaultValue 2500 */
  readonly capHeadChars?: number;
  /** Characters kept at the tail of a cut result. @defaultValue 1000 */
  readonly capTailChars?: number;
  /** Extra protected tool names, added to {@link DEFAULT_PROTECTED_TOOLS} (matched case-insensitively). @defaultValue [] */
  readonly protectedTools?: readonly string[];
  /** Aged items untouched for this many milliseconds are cleared. @defaultValue 3_600_000 (60 min) */
  readonly idleMs?: number;
  /** Maximum folds per run while the history is under the emergency mark (above it, folding goes on to the lower mark; paid folds below the marks take every run that has paid); each must free tokens. @defaultValue 8 */
  readonly maxFoldAttempts?: number;
  /** Byte allowance (UTF-8) of a deterministic brief in a small window (see `briefShare`). @defaultValue 1400 */
  readonly briefBytes?: number;
  /**
   * The brief's allowance grows with the window: `max(briefBytes, briefShare × history budget)` bytes (a 128k window:
   * about 12,000 bytes), so that a fold of a long finished task keeps its values. 0 keeps `briefBytes`. @defaultValue 0.1
   */
  readonly briefShare?: number;
  /**
   * Price of reading a cached input token, as a multiple of an uncached one (Anthropic: 0.1; OpenAI: 0.25–0.5). With
   * `cacheWrite` it decides when a fold below the upper mark pays (see `foldRule`); 0 turns such folds off. @defaultValue 0.1
   */
  readonly cacheRead?: number;
  /** Price of writing a token to the cache, as a multiple of an uncached input token (Anthropic 5-minute cache: 1.25; OpenAI: 1). @defaultValue 1.25 */
  readonly cacheWrite?: number;
  /** Protect the tool results of the critical chain ({@link analyzeSpan}) from aging, clearing and folding. @defaultValue true */
  readonly graphProtection?: boolean;
  /**
   * Under pressure (the history is still above the upper mark once everything else outside the latest round
   * is folded), only the newest chain results within this share of the history budget stay protected from
   * folding; above the emergency mark none do. @defaultValue 0.3
   */
  readonly chainShare?: number;
  /**
   * Share of the history budget (a fraction in (0, 1]) the live summaries may hold: at a fold, when their tokens pass
   * it, the oldest summaries merge into one (a summary of summaries), so that those left hold at most half of it.
   * Below it they merge once the merge has paid for itself at `cacheRead` and `cacheWrite` prices (see `foldRule`).
   * @defaultValue 0.2
   */
  readonly summaryShare?: number;
  /** Superseded tool results age even inside the tail window. @defaultValue true */
  readonly ageSuperseded?: boolean;
  /**
   * Tools whose results are read once: they age (reason `short_lived`) as soon as a later assistant item exists,
   * inside the tail window and on the critical chain too (not when pinned, locked or a protected tool). Replaces the
   * default. @defaultValue ['open_tools'] (the navigation tool of the tool catalogue)
   */
  readonly shortLivedTools?: readonly string[];
}

/** Options with every default filled in. */
export interface ResolvedRulesOptions {
  readonly tailTurns: number;
  readonly stubChars: number;
  readonly callArgsChars: number;
  readonly capChars: number;
  readonly capHeadChars: number;
  readonly capTailChars: number;
  readonly protectedTools: ReadonlySet<string>;
  readonly idleMs: number;
  readonly maxFoldAttempts: number;
  readonly briefBytes: number;
  readonly briefShare: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly graphProtection: boolean;
  readonly chainShare: number;
  readonly summaryShare: number;
  readonly ageSuperseded: boolean;
  readonly shortLivedTools: ReadonlySet<string>;
}
