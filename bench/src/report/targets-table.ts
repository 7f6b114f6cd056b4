import type { EvalResult } from '../eval/eval-result.js';
import { formatBudget, formatPercent, formatRatio } from './format.js';
import { markdownTable } from './markdown-table.js';

/** The budgets a corpus was replayed at: the long budgets for a chained long session. */
export function budgetsOf(result: EvalResult, corpus: string): readonly number[] {
  return corpus.startsWith('long-') ? (result.longBudgets ?? []) : result.budgets;
}

/**
 * ctxgit (policy `ctxgit`) against the cheapest baseline under budget, per corpus and budget: cost ratio per price
 * model (and the corpus's cost floor over the same baseline, when the result has it), recall (all reused identifiers, and those shaped like identifiers, of the run at
 * the first price model's prices; and the lowest of its runs at each price model's, whose bills the cost ratios are), over budget, latest user missing, invalid, refused.
 * @example
 * ```ts
 * targetsTable(result); // '| corpus | budget | cost ÷ cheapest under budget (anthropic-sonnet-4.5) | … |'
 * ```
 */
export function targetsTable(result: EvalResult): string {
  const rows: string[][] = [];
  for (const corpus of ['all', ...result.corpora.map((c) => c.name)]) {
    for (const budget of budgetsOf(result, corpus)) {
      const at = result.summaries.filter((x) => x.corpus === corpus && x.budget === budget);
      const ours = at.find((x) => x.policy === 'ctxgit');
      if (ours === undefined) continue;
      const under = at.filter((x) => !x.policy.startsWith('ctxgit') && x.budgetViolations.count === 0);
      const ratios = result.pricings.map((p) => {
        const best = under.reduce<{ id: string; units: number } | null>((m, x) => {
          const u = x.cost[p.id]?.units ?? Infinity;
          return m === null || u < m.units ? { id: x.policy, units: u } : m;
        }, null);
        if (best === null) return 'none';
        const floor = result.floors?.[corpus]?.[p.id];
        return `${formatRatio((ours.cost[p.id]?.units ?? 0) / best.units)} (${best.id}${floor === undefined ? '' : `; floor ${formatRatio(floor / best.units)}`})`;
      });
      const shaped = ours.identifierRecall === undefined ? '–' : formatPercent(ours.identifierRecall.share);
      const priced = Object.values(ours.recallByPrice ?? {});
      const lowest = priced.length === 0 ? '–' : formatPercent(Math.min(...priced.map((r) => r.share)));
      rows.push([corpus, formatBudget(budget), ...ratios, formatPercent(ours.dependencyRecall.share), shaped, lowest, String(ours.budgetViolations.count), String(ours.latestUser.misses), String(ours.invalidRequests ?? 0), String(ours.refusals.count)]);
    }
  }
  return markdownTable(
    ['corpus', 'budget', ...result.pricings.map((p) => `cost ÷ cheapest under budget (${p.id})`), 'recall', 'recall (identifier-shaped)', 'recall, lowest of the priced runs', 'over budget', 'latest user missing', 'invalid', 'refused'],
    rows,
  );
}

