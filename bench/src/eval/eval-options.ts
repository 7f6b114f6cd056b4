/** Options of the policy evaluation. */
export interface EvalOptions {
  /** A reduced run: a sample of each corpus and fewer budgets. */
  readonly quick: boolean;
  /** The corpus folder (`tau-bench-airline/`, `swe-agent/`, `claude-code/` inside). */
  readonly corpusDir: string;
  /** Conversations replayed per corpus, spread evenly over it. @defaultValue all (quick: 12) */
  readonly sample?: number;
  /** Request budgets in tokens. @defaultValue {@link DEFAULT_BUDGETS} (quick: {@link QUICK_BUDGETS}) */
  readonly budgets?: readonly number[];
  /** Budgets of the long sessions (each corpus chained into one session of at least `longCalls` calls). @defaultValue {@link LONG_BUDGETS} (quick: {@link QUICK_LONG_BUDGETS}) */
  readonly longBudgets?: readonly number[];
  /** Model calls of each long session. @defaultValue {@link LONG_CALLS} (quick: {@link QUICK_LONG_CALLS}) */
  readonly longCalls?: number;
  /** Only the policies with these ids (the first one must be `full-history`, the reference of every ratio). @defaultValue all of `evalPolicies()` */
  readonly policies?: readonly string[];
  /** Only the corpora with these names (`tau-bench-airline`, `swe-agent`, `claude-code`). @defaultValue all */
  readonly corpora?: readonly string[];
  /** Progress lines. @defaultValue none */
  readonly log?: (line: string) => void;
}

/** The budgets of the full run, in tokens for the whole rendered request, from where every policy must act to where few do. */
export const DEFAULT_BUDGETS: readonly number[] = [4000, 8000, 16_000, 32_000, 64_000, 128_000];
/** The budgets of a quick run. */
export const QUICK_BUDGETS: readonly number[] = [4000, 16_000];
/** The budgets of the long sessions. */
export const LONG_BUDGETS: readonly number[] = [32_000, 64_000, 128_000];
/** The budgets of the long sessions in a quick run. */
export const QUICK_LONG_BUDGETS: readonly number[] = [32_000];
/** Model calls of a long session. */
export const LONG_CALLS = 400;
/** Model calls of a long session in a quick run (a smoke check of the chaining, not the figure). */
export const QUICK_LONG_CALLS = 60;
