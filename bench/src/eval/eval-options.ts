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
  /** Progress lines. @defaultValue none */
  readonly log?: (line: string) => void;
}

/** The budgets of the full run, in tokens for the whole request: small enough that every policy must act. */
export const DEFAULT_BUDGETS: readonly number[] = [2000, 3000, 4000, 6000];
/** The budgets of a quick run. */
export const QUICK_BUDGETS: readonly number[] = [2000, 4000];
