import type { ContextItem } from './item.js';
import type { PipelineContext, PipelineInput, PipelineResult } from './pipeline.js';
import { executePipeline } from './execute-pipeline.js';

/**
 * Runs the rule pipeline on the live list of the parent (its visible items; folded ones live under their summary):
 * converts the new nodes (in branch-view order) to `full` items with reason `new`
 * (or takes given items as they are, e.g. attach expansions with `attachedFrom`), runs the rules in order,
 * counts tokens (memoized per content), and after every rule checks that no item loosened its state, no
 * locked item changed, no item vanished or moved, only folding created summaries, every summary's folded
 * items exist and point back to it, and the system items and latest user turn were not folded. Pure and
 * deterministic: `now` comes from the context. Running again on the result with no new nodes returns the
 * same items. The result is the new live list plus, for each new summary, the items it folded (`folds`): every
 * parent and new item is in exactly one of them.
 *
 * @param parentItems - The live items of the parent commit (no `summarized` item).
 * @param newNodes - Nodes (or ready items) added since the parent, in branch-view order.
 * @param context - Time, tokenizer, history budget, rules (default {@link defaultRules}) and band.
 * @returns Items, totals, the first changed index (the cacheable prefix) and a report.
 * @throws RulesInvariantError naming the rule that broke an invariant.
 * @throws RulesOverBudgetError when folding cannot get the history under the emergency mark.
 * @throws RulesInputError on bad input (duplicate keys, bad budget or band, unknown roles).
 * @example
 * ```ts
 * const r = runPipeline(parent.items, [userNode, assistantNode, toolNode], {
 *   now: clock(), tokenizer, historyBudget: 16_000,
 * });
 * r.items; r.folds; r.totalTokens; r.firstChangedIndex; r.report.aged;
 * ```
 */
export function runPipeline(parentItems: readonly ContextItem[], newNodes: readonly PipelineInput[], context: PipelineContext): PipelineResult {
  const { items, folds, totalTokens, historyTokens, firstChangedIndex, changedPositions, report } = executePipeline(parentItems, newNodes, context);
  return { items, folds, totalTokens, historyTokens, firstChangedIndex, ...(changedPositions === undefined ? {} : { changedPositions }), report };
}
