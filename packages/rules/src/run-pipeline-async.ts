import type { ContextItem } from './item.js';
import type { AsyncPipelineContext, PipelineInput, PipelineResult } from './pipeline.js';
import { executePipeline } from './execute-pipeline.js';
import { firstChanged } from './first-changed.js';
import { totals } from './totals.js';
import { checkInvariants } from './invariants.js';
import { RulesInputError } from './errors.js';
import { FoldIndex } from './folded-originals.js';

/**
 * {@link runPipeline}, then, for every summary created on this run, asks the summarizer for its text and
 * records it (reason `summarizer:<name>`). A summarizer that resolves to `undefined`, or a text that would put
 * the history above the emergency mark, keeps the deterministic brief (counted in `report.summarizerFallbacks`). Without a
 * summarizer it is `runPipeline` returning a promise.
 *
 * @param parentItems - The live items of the parent commit (no `summarized` item).
 * @param newNodes - Nodes (or ready items) added since the parent, in branch-view order.
 * @param context - As for {@link runPipeline}, plus `summarizer`.
 * @returns The pipeline result.
 * @throws RulesInvariantError, RulesOverBudgetError, RulesInputError as {@link runPipeline} does.
 * @example
 * ```ts
 * const r = await runPipelineAsync(parent.items, nodes, {
 *   now, tokenizer, historyBudget: 16_000,
 *   summarizer: { name: 'haiku', summarize: async ({ items }) => callModel(items) },
 * });
 * ```
 */
export async function runPipelineAsync(
  parentItems: readonly ContextItem[],
  newNodes: readonly PipelineInput[],
  context: AsyncPipelineContext,
): Promise<PipelineResult> {
  const run = executePipeline(parentItems, newNodes, context);
  const summarizer = context.summarizer;
  if (summarizer === undefined) {
    const { items, folds, totalTokens, historyTokens, firstChangedIndex, changedPositions, report } = run;
    return { items, folds, totalTokens, historyTokens, firstChangedIndex, ...(changedPositions === undefined ? {} : { changedPositions }), report };
  }
  const parentKeys = new Set(parentItems.map((it) => it.key));
  let items = run.items;
  let fallbacks = 0;
  // Originals never change here (only new summaries get a summarizer's text), so the index of the first list serves.
  const index = new FoldIndex(items, (k) => run.folds.get(k) ?? context.foldedOf?.(k));
  for (let i = 0; i < items.length; i++) {
    const s = items[i] as ContextItem;
    if (s.state !== 'summary' || parentKeys.has(s.key)) continue;
    const first = s.blocks[0];
    const brief = first?.type === 'text' ? first.text : '';
    const originals = index.originalsOf(s);
    const text = await summarizer.summarize({ key: s.key, items: originals, brief });
    if (text === undefined) {
      fallbacks++;
      continue;
    }
    if (typeof text !== 'string' || text === '') throw new RulesInputError(`summarizer ${summarizer.name}`, 'must resolve to a non-empty string');
    const blocks = [{ type: 'text' as const, text }];
    const tokens = run.ctx.countTokens(blocks);
    if (totals(items).history - s.tokens + tokens > run.ctx.band.emergency) {
      fallbacks++;
      continue;
    }
    const next = [...items];
    next[i] = { ...s, blocks, tokens, reason: `summarizer:${summarizer.name}` };
    checkInvariants(run.ctx.cache, `summarizer:${summarizer.name}`, items, next);
    items = next;
  }
  const t = totals(items);
  return {
    items,
    folds: run.folds,
    totalTokens: t.total,
    historyTokens: t.history,
    firstChangedIndex: firstChanged(parentItems, items),
    ...(items === run.items && run.changedPositions !== undefined ? { changedPositions: run.changedPositions } : {}),
    report: { ...run.report, summarizerFallbacks: fallbacks },
  };
}
