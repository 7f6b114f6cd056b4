import { loadTokenizer } from '@ctxgit/tokenize';
import type { Policy } from './policy.js';
import { ctxgitPolicy } from './policies/ctxgit-policy.js';
import { fullHistoryPolicy } from './policies/full-history.js';
import { slidingWindowPolicy } from './policies/sliding-window.js';
import { observationMaskingPolicy } from './policies/observation-masking.js';
import { toolResultClearingPolicy } from './policies/tool-result-clearing.js';

/**
 * The policies of the evaluation, in report order (the full history first: it is the reference of every ratio):
 * full history, sliding window, Anthropic-style tool-result clearing (keep 3; and with `clear_at_least` a quarter
 * of the budget), observation masking (keep 3, 5, 10), ctxgit's defaults (at each price model's cache prices), and
 * four ablations of ctxgit at the rules' default (Anthropic) prices (no graph protection, no cache epochs, no paid
 * folds, no folding).
 * @example
 * ```ts
 * (await evalPolicies()).map((p) => p.id);
 * ```
 */
export async function evalPolicies(): Promise<Policy[]> {
  const tokenizer = await loadTokenizer('o200k_base');
  return [
    fullHistoryPolicy,
    slidingWindowPolicy,
    toolResultClearingPolicy({ keep: 3 }),
    toolResultClearingPolicy({ keep: 3, clearAtLeastShare: 0.25 }),
    observationMaskingPolicy(3),
    observationMaskingPolicy(5),
    observationMaskingPolicy(10),
    ctxgitPolicy(tokenizer, {
      id: 'ctxgit',
      label: 'ctxgit defaults',
      description:
        "runPipeline of @ctxgit/rules with defaultRules() and the default band, every option at its default but the cache prices, set to each price model's as a session takes its model's (its cost under a price model is its run at those prices; its other figures are its run at Anthropic's): per-item cap, tool aging outside the tail window, idle clearing, folding in a band with cache epochs and below it once a fold has paid for itself, graph protection of the critical chain.",
      priced: true,
    }),
    ctxgitPolicy(tokenizer, {
      id: 'ctxgit-no-graph',
      label: 'ctxgit, no graph protection',
      description: 'ctxgit defaults with graphProtection: false (the critical chain is not protected).',
      rules: { graphProtection: false },
    }),
    ctxgitPolicy(tokenizer, {
      id: 'ctxgit-no-epochs',
      label: 'ctxgit, no cache epochs',
      description: 'ctxgit defaults with band.epochs: false (mutations before the tail apply on every call).',
      band: { epochs: false },
    }),
    ctxgitPolicy(tokenizer, {
      id: 'ctxgit-no-paid-folds',
      label: 'ctxgit, no paid folds',
      description: 'ctxgit defaults with cacheRead: 0 (a fold only when the band asks for one, never one below the marks that has paid for itself).',
      rules: { cacheRead: 0 },
    }),
    ctxgitPolicy(tokenizer, {
      id: 'ctxgit-no-folding',
      label: 'ctxgit, no folding',
      description: 'ctxgit defaults without the fold rule (aging, cap and idle clearing only).',
      noFolding: true,
    }),
  ];
}
