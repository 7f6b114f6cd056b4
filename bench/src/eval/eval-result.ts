import type { CachePricing } from './pricing.js';
import type { PolicySummary } from './summary.js';

/** The result of the policy evaluation, as stored in the JSON. */
export interface EvalResult {
  readonly encoding: string;
  /** Request budgets in tokens. */
  readonly budgets: readonly number[];
  /** Budgets of the long sessions (corpora named `long-<corpus>`, not part of `all`). */
  readonly longBudgets?: readonly number[];
  readonly policies: readonly { readonly id: string; readonly label: string; readonly description: string }[];
  readonly pricings: readonly CachePricing[];
  readonly corpora: readonly {
    readonly name: string;
    /** Conversations in the corpus, and how many were replayed (all unless quick). */
    readonly conversations: number;
    readonly replayed: number;
    readonly calls: number;
    readonly timestamps: boolean;
    /** What the importers skipped on purpose, as they reported it (summed over the replayed conversations). */
    readonly skipped: number;
    /** The same, by the importers' reason (e.g. `trajectory`, `summary`, `malformed`). */
    readonly skippedReasons?: Readonly<Record<string, number>>;
  }[];
  /** Requests `@ctxgit/render` refused (measured as canonical JSON instead); 0 when all rendered. */
  readonly renderFallbacks: { readonly count: number; readonly firstError: string | null };
  /** Every policy x budget, for `all` corpora and for each corpus. */
  readonly summaries: readonly PolicySummary[];
  /** Per corpus, per pricing id: the least any policy can be billed for its calls (see `costFloor`); absent in older results. */
  readonly floors?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}
