import type { Node } from '@ctxgit/dag';
import type { ContextItem } from '@ctxgit/rules';
import type { CachePricing } from './pricing.js';
import type { TokenMeter } from './token-meter.js';

/** What a policy is given before one model call. */
export interface PolicyCall {
  /** Every node before the assistant step, as `full` items, in branch-view order (what a client holds). */
  readonly history: readonly ContextItem[];
  /** The nodes appended since the previous call of this conversation (for stateful policies). */
  readonly newNodes: readonly Node[];
  /** Time of the call in ms (the transcript's timestamp, or the node's `seq` when it has none). */
  readonly now: number;
}

/** What a policy produced for one call. */
export interface PolicyOutput {
  /** The items the model is fed. */
  readonly items: readonly ContextItem[];
  /** Set when the policy refused the call (e.g. a budget it cannot meet) and `items` is its fallback. */
  readonly refused?: string;
}

/** One policy running over one conversation under one budget. */
export interface PolicyRun {
  next(call: PolicyCall): Promise<PolicyOutput>;
}

/** A context policy under evaluation. */
export interface Policy {
  /** Stable id used in the JSON, e.g. `sliding-window`. */
  readonly id: string;
  readonly label: string;
  /** One line on what the policy does, for the docs page. */
  readonly description: string;
  /** Starts a run over one conversation with a request budget in tokens. */
  start(budget: number, meter: TokenMeter): PolicyRun;
  /**
   * For a policy that decides by cache prices: itself set to a price model's, as a session on that provider's model
   * would be. Its cost under each price model is then that of its run at those prices; its other figures are those
   * of its run at the first price model's. Absent: one run, billed under every price model.
   */
  readonly at?: (pricing: CachePricing) => Policy;
}
